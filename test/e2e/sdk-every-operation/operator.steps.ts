import { BLOCKLIST_CATALOGUE, IdentityStore, setOperatorFlag } from '@svc/domain';
import type { SvcClient } from '@svc/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SdkScenario } from '../../support/sdk-scenario.js';

const DAY = 24 * 3_600_000;

/**
 * Operator routes with an API token of scope admin, held by an account flagged operator as `svc accounts
 * set-operator` does (spec 2.8, 2.9, 3, 4.10).
 */
export function describeOperator(scenario: SdkScenario): void {
  describe('operator routes (spec 2.8, 2.9, 3, 4.10)', () => {
    let admin: SvcClient;

    beforeAll(async () => {
      const operator = await scenario.signedIn('operator');
      await setOperatorFlag(
        await scenario.api.container.getAsync<IdentityStore>(IdentityStore),
        operator.email,
        true,
      );
      const { secret } = await operator.session.tokens.create({ name: 'operator', scopes: ['admin'] });
      admin = scenario.client({ token: secret });
    });

    it('creates, lists and removes operator blocks and source blocks', async () => {
      const { operatorBlocks, sourceBlocks } = admin.admin;
      const block = await operatorBlocks.create({ pattern: 'malware.example', reason_code: 'abuse' });
      expect(block.block).toMatchObject({ pattern: 'malware.example', reason_code: 'abuse' });
      expect((await operatorBlocks.list().toArray()).map((each) => each.id)).toContain(block.block.id);
      expect((await operatorBlocks.remove(block.block.id)).file_version).toBeGreaterThan(block.file_version);

      const source = await sourceBlocks.create({
        cidr: '203.0.113.77/24',
        reason: 'amplification',
        expires_at: new Date(scenario.api.clock.now().getTime() + DAY).toISOString(),
      });
      expect(source.block.cidr).toBe('203.0.113.0/24');
      expect((await sourceBlocks.list().toArray()).map((each) => each.id)).toContain(source.block.id);
      expect((await sourceBlocks.remove(source.block.id)).file_version).toBeGreaterThan(source.file_version);
    });

    it('finds profiles and accounts by part of a name or email', async () => {
      const { id } = scenario.get('profile');
      expect((await admin.admin.profiles.search(id).toArray()).map((each) => each.id)).toEqual([id]);
      const accounts = await admin.admin.accounts.search('@').toArray();
      expect(accounts.length).toBeGreaterThan(0);
    });

    it('suspends and reinstates a profile', async () => {
      const { id } = scenario.get('profile');
      expect(await admin.admin.profiles.get(id)).toMatchObject({ suspended: false });
      expect(
        await admin.admin.profiles.update(id, { suspended: true, reason: 'abuse report' }),
      ).toMatchObject({ suspended: true });
      expect(await admin.admin.profiles.update(id, { suspended: false })).toMatchObject({ suspended: false });
    });

    it('triages the list report and reads the compiler sources and list builds', async () => {
      const reports = await admin.admin.listReports.list().toArray();
      const report = reports.find((each) => each.domain === 'shop.example.com');
      if (report === undefined) throw new Error('the owner’s list report is not in the triage queue');
      const decided = await admin.admin.listReports.decide(report.id, {
        status: 'rejected',
        resolution_note: 'The list is right about this one.',
      });
      expect(decided).toMatchObject({ id: report.id, status: 'rejected' });
      const sources = (await admin.admin.lists.sources()).sources.map((source) => source.id);
      expect(new Set(sources)).toEqual(
        new Set(BLOCKLIST_CATALOGUE.lists.flatMap((list) => list.sources.map((source) => source.id))),
      );
      // Builds are real compilations: none until a refresh or an import compiles a list (no source is
      // reachable from this scenario).
      expect((await admin.admin.lists.versions()).versions).toEqual([]);
    });

    it('deletes an account on its owner’s behalf and cancels that', async () => {
      const member = scenario.get('member');
      const deleted = await admin.admin.accounts.delete(member.id, { reason: 'owner asked', ticket: 'T-1' });
      expect(deleted).toMatchObject({ id: member.id, deletion_due_at: expect.any(String) });
      expect(await admin.admin.accounts.undelete(member.id, { reason: 'owner changed their mind' })).toEqual({
        status: 'active',
      });
    });

    it('reads every organisation’s audit entries, client errors and feedback', async () => {
      expect((await admin.admin.audit.list().toArray()).map((entry) => entry.action)).toContain(
        'account.preferences_updated',
      );
      expect((await admin.admin.clientErrors.list().toArray()).map((each) => each.message)).toContain(
        'TypeError: boom',
      );
      expect((await admin.admin.feedback.list().toArray()).map((each) => each.message)).toContain('Lovely');
    });
  });
}
