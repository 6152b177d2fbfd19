import { API_VERSION } from '@svc/domain';
import { Command } from 'commander';
import { registerAccounts } from './commands/accounts.command.js';
import { registerInvites } from './commands/invites.command.js';
import { registerListReports } from './commands/list-reports.command.js';
import { registerMigrate } from './commands/migrate.command.js';
import { registerOperatorBlocks } from './commands/operator-blocks.command.js';
import { registerOperatorViews } from './commands/operator-views.command.js';
import { registerProfileSuspension } from './commands/profile-suspension.command.js';
import { registerServe } from './commands/serve.command.js';
import { registerSimulate } from './commands/simulate.command.js';
import { registerSourceBlocks } from './commands/source-blocks.command.js';

/** The `svc` command line. */
export function createProgram(): Command {
  const program = new Command('svc')
    .description('svc: control plane of a DNS filtering service')
    .version(API_VERSION)
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 API or command error (problem code printed), 2 bad usage.',
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  registerServe(program);
  registerMigrate(program);
  registerAccounts(program);
  registerInvites(program);
  registerSimulate(program);
  registerOperatorBlocks(program);
  registerSourceBlocks(program);
  registerProfileSuspension(program);
  registerListReports(program);
  registerOperatorViews(program);
  return program;
}
