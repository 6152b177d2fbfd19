import type { Command } from 'commander';
import { apiAction, apiOptions, table, wholeNumber } from '../api/api-command.js';
import { usageError } from '../output.js';

const STATUSES = ['open', 'accepted', 'rejected'];

/** `svc list-reports list|accept|reject` (alias `svc reports`): list-report triage through the API (spec 3). */
export function registerListReports(program: Command): void {
  const reports = program
    .command('list-reports')
    .alias('reports')
    .description('list-report triage (API client, scope admin)');
  apiOptions(
    reports
      .command('list')
      .description('the triage queue, oldest due first')
      .option('--status <status>', `${STATUSES.join(', ')} (default open)`)
      .option('--limit <n>', 'at most this many reports', '50'),
  ).action(
    apiAction(async ({ client, output }, flags: { status?: string; limit: string }) => {
      if (flags.status !== undefined && !STATUSES.includes(flags.status)) {
        usageError(`--status must be one of ${STATUSES.join(', ')}`);
      }
      const limit = wholeNumber('--limit', flags.limit, 10_000);
      const list = await client.admin.listReports
        .list({
          limit: Math.min(limit, 200),
          ...(flags.status === undefined ? {} : { status: flags.status as 'open' | 'accepted' | 'rejected' }),
        })
        .toArray(limit);
      output.result(list, () =>
        table(
          ['ID', 'DUE', 'STATUS', 'KIND', 'LIST', 'DOMAIN'],
          list.map((report) => [
            report.id,
            report.triage_due_at,
            report.status,
            report.kind,
            String(report.list_id),
            report.domain,
          ]),
        ),
      );
    }),
  );
  for (const [verb, status] of [
    ['accept', 'accepted'],
    ['reject', 'rejected'],
  ] as const) {
    apiOptions(
      reports
        .command(verb)
        .description(`${verb} an open report; the reporter is emailed the outcome and the note`)
        .argument('<id>', 'the report’s id')
        .requiredOption('--note <text>', 'resolution note sent to the reporter'),
    ).action(
      apiAction(async ({ client, output }, id: string, flags: { note: string }) => {
        const report = await client.admin.listReports.decide(id, { status, resolution_note: flags.note });
        output.result(report, () => `${report.domain} on list ${report.list_id}: ${report.status}`);
      }),
    );
  }
}
