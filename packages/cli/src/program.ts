import { API_VERSION } from '@svc/domain';
import { Command, Help, type Option } from 'commander';
import { registerAccounts } from './commands/accounts.command.js';
import { registerInvites } from './commands/invites.command.js';
import { registerListReports } from './commands/list-reports.command.js';
import { registerLists } from './commands/lists.command.js';
import { registerMigrate } from './commands/migrate.command.js';
import { registerOperatorBlocks } from './commands/operator-blocks.command.js';
import { registerOperatorViews } from './commands/operator-views.command.js';
import { registerProfileSuspension } from './commands/profile-suspension.command.js';
import { registerServe } from './commands/serve.command.js';
import { registerSimulate } from './commands/simulate.command.js';
import { registerSourceBlocks } from './commands/source-blocks.command.js';

/** An option's help text; a required option says so first, since the usage line does not show it. */
function optionDescription(option: Option): string {
  const description = new Help().optionDescription(option);
  return option.mandatory ? `(required) ${description}` : description;
}

/** The `svc` command line. */
export function createProgram(): Command {
  const program = new Command('svc')
    .description('svc: control plane of a DNS filtering service')
    .version(API_VERSION)
    .addHelpText(
      'after',
      [
        '',
        'Settings: serve and the storage commands (migrate, accounts set-operator, invites, simulate) read the',
        'server settings of the README; the API-client commands read --api-url/SVC_API_URL, the token from',
        'SVC_TOKEN, --token-stdin (standard input) or --config/SVC_CONFIG,',
        'which every other command accepts and ignores.',
        '--token <token> works but shows the token to other local users (ps) and shell history.',
        'API token scopes grant only what they name: profiles:write does not include profiles:read.',
        'Exit codes: 0 success, 1 API or command error (problem code printed), 2 bad usage.',
      ].join('\n'),
    )
    // Set before the commands are added: each copies the help configuration of its parent.
    .configureHelp({ optionDescription })
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  registerServe(program);
  registerMigrate(program);
  registerAccounts(program);
  registerInvites(program);
  registerSimulate(program);
  registerLists(program);
  registerOperatorBlocks(program);
  registerSourceBlocks(program);
  registerProfileSuspension(program);
  registerListReports(program);
  registerOperatorViews(program);
  return program;
}
