import type { SvcClient } from '@svc/sdk';

/** admin.md: an operator block, a source block, a profile suspension and list report triage. */
export async function operate(admin: SvcClient, profileId: string): Promise<void> {
  const { block } = await admin.admin.operatorBlocks.create({
    pattern: 'malware.example',
    reason_code: 'abuse',
    note: 'ticket 1234',
  });
  for await (const live of admin.admin.operatorBlocks.list({ status: 'live' })) console.log(live.pattern);
  await admin.admin.operatorBlocks.remove(block.id);

  await admin.admin.sourceBlocks.create({
    cidr: '198.51.100.0/24',
    reason: 'amplification abuse',
    expires_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });
  await admin.admin.profiles.update(profileId, { suspended: true, reason: 'abuse report 1234' });

  for await (const report of admin.admin.listReports.list({ status: 'open' })) {
    await admin.admin.listReports.decide(report.id, {
      status: 'accepted',
      resolution_note: 'fixed upstream',
    });
  }
}
