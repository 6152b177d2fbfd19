import type { Command } from 'commander';
import { apiAction, apiOptions, confirm } from '../api/api-command.js';

/** `svc accounts delete|undelete` (RUNNER.md): deletion on an owner's behalf through the API (spec 3, 4.10). */
export function registerAccountDeletion(accounts: Command): void {
  apiOptions(
    accounts
      .command('delete')
      .description('start an account’s deletion on its owner’s behalf (API client, scope admin)')
      .argument('<id>', 'the account’s id')
      .requiredOption('--reason <text>', 'why (operators only)')
      .option('--ticket <ref>', 'support ticket or data-rights log reference')
      .option('--yes', 'do not ask for confirmation'),
  ).action(
    apiAction(
      async ({ client, output }, id: string, flags: { reason: string; ticket?: string; yes?: boolean }) => {
        if (!(await confirm(`delete account ${id}`, flags.yes))) {
          output.error('not deleted');
          process.exitCode = 1;
          return;
        }
        const account = await client.admin.accounts.delete(id, {
          reason: flags.reason,
          ...(flags.ticket === undefined ? {} : { ticket: flags.ticket }),
        });
        output.result(account, () => `${account.email}: deletion pending, due ${account.deletion_due_at}`);
      },
    ),
  );
  apiOptions(
    accounts
      .command('undelete')
      .description('cancel a pending deletion on the owner’s behalf (API client, scope admin)')
      .argument('<id>', 'the account’s id')
      .option('--reason <text>', 'why (operators only)')
      .option('--ticket <ref>', 'reference quoted in the email to the owner'),
  ).action(
    apiAction(async ({ client, output }, id: string, flags: { reason?: string; ticket?: string }) => {
      const status = await client.admin.accounts.undelete(id, {
        ...(flags.reason === undefined ? {} : { reason: flags.reason }),
        ...(flags.ticket === undefined ? {} : { ticket: flags.ticket }),
      });
      output.result(status, () => `account ${id} is ${status.status} again`);
    }),
  );
}
