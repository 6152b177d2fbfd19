import type { Command } from 'commander';
import { apiAction, apiOptions, collect, table, wholeNumber } from '../api/api-command.js';

/** `svc audit list`, `svc feedback list`, `svc client-errors list`: operator views through the API. */
export function registerOperatorViews(program: Command): void {
  apiOptions(
    program
      .command('audit')
      .description('every organisation’s audit log (API client, scope admin)')
      .command('list')
      .description('audit entries, newest first')
      .option('--org-id <id>', 'only this organisation')
      .option('--action <action>', 'only this action (repeatable)', collect, [])
      .option('--limit <n>', 'at most this many entries', '50'),
  ).action(
    apiAction(async ({ client, output }, flags: { orgId?: string; action: string[]; limit: string }) => {
      const limit = wholeNumber('--limit', flags.limit, 10_000);
      const entries = await client.admin.audit
        .list({
          limit: Math.min(limit, 200),
          ...(flags.orgId === undefined ? {} : { orgId: flags.orgId }),
          ...(flags.action.length === 0 ? {} : { action: flags.action }),
        })
        .toArray(limit);
      output.result(entries, () =>
        table(
          ['AT', 'ORGANISATION', 'ACTOR', 'ACTION', 'TARGET'],
          entries.map((entry) => [entry.created_at, entry.org_id, entry.actor, entry.action, entry.target]),
        ),
      );
    }),
  );
  apiOptions(
    program
      .command('feedback')
      .description('dashboard feedback of the last 365 days (API client, scope admin)')
      .command('list')
      .description('feedback, newest first')
      .option('--limit <n>', 'at most this many entries', '50'),
  ).action(
    apiAction(async ({ client, output }, flags: { limit: string }) => {
      const limit = wholeNumber('--limit', flags.limit, 10_000);
      const entries = await client.admin.feedback.list({ limit: Math.min(limit, 200) }).toArray(limit);
      output.result(entries, () =>
        table(
          ['AT', 'ACCOUNT', 'RATING', 'MESSAGE'],
          entries.map((entry) => [
            entry.created_at,
            entry.account_id,
            String(entry.rating ?? ''),
            entry.message,
          ]),
        ),
      );
    }),
  );
  apiOptions(
    program
      .command('client-errors')
      .description('dashboard error reports of the last 30 days (API client, scope admin)')
      .command('list')
      .description('reports, newest first')
      .option('--limit <n>', 'at most this many reports', '50'),
  ).action(
    apiAction(async ({ client, output }, flags: { limit: string }) => {
      const limit = wholeNumber('--limit', flags.limit, 10_000);
      const entries = await client.admin.clientErrors.list({ limit: Math.min(limit, 200) }).toArray(limit);
      output.result(entries, () =>
        table(
          ['AT', 'ACCOUNT', 'URL', 'MESSAGE'],
          entries.map((entry) => [entry.created_at, entry.account_id, entry.url ?? '', entry.message]),
        ),
      );
    }),
  );
}
