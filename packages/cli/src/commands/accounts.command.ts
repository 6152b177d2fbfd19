import type { Account } from '@svc/domain';
import type { Command } from 'commander';
import { processOutput } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { runStorageOperation } from '../storage/run-storage-operation.js';
import { registerAccountDeletion } from './account-deletion.command.js';

/** `svc accounts set-operator EMAIL [--off]` (RUNNER.md), and `svc accounts delete|undelete ID` through the API. */
export function registerAccounts(program: Command): void {
  const accounts = program
    .command('accounts')
    .description(
      'accounts: the operator flag from the storage; deletion on an owner’s behalf through the API',
    );
  registerAccountDeletion(accounts);
  accounts
    .command('set-operator')
    .description('flag an existing account as an operator (is_admin), or clear the flag with --off')
    .argument('<email>', 'the account’s email address')
    .option('--off', 'clear the operator flag')
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (email: string, flags: StorageFlags & { json?: boolean; off?: boolean }) => {
      const output = processOutput(flags.json === true);
      const account = (await runStorageOperation(
        'svc accounts set-operator',
        'accounts.set-operator',
        { email, on: flags.off !== true },
        flags,
        output,
      )) as Account;
      output.result(
        account,
        () => `${account.email} is ${account.is_admin ? 'now an operator' : 'no longer an operator'}`,
      );
    });
}
