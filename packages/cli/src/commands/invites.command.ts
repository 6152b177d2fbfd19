import type { InviteSummary } from '@svc/domain';
import type { Command } from 'commander';
import { processOutput } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { runStorageOperation } from '../storage/run-storage-operation.js';

const UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses `30m`, `12h`, `7d`, `2w` into milliseconds; throws a usage error otherwise. */
export function parseDuration(value: string): number {
  const match = /^(\d+)([mhdw])$/.exec(value.trim());
  const unit = match?.[2] === undefined ? undefined : UNITS_MS[match[2]];
  if (match?.[1] === undefined || unit === undefined || Number(match[1]) === 0) {
    throw new Error(`--expires must be a duration such as 30m, 12h, 7d or 2w (got ${value})`);
  }
  return Number(match[1]) * unit;
}

function describeInvite(invite: InviteSummary): string {
  const state = invite.live ? 'live' : invite.revoked_at !== null ? 'revoked' : 'spent or expired';
  return `${invite.prefix}…  ${invite.uses}/${invite.max_uses} used  expires ${invite.expires_at ?? 'never'}  ${state}  (${invite.id})`;
}

type JsonFlag = StorageFlags & { json?: boolean };

/** `svc invites create|list|revoke` (RUNNER.md): invite codes for signup mode `invite`. */
export function registerInvites(program: Command): void {
  const invites = program.command('invites').description('invite codes for signup mode invite');
  invites
    .command('create')
    .description('create an invite code (shown once)')
    .option('--uses <n>', 'how many signups it admits', '1')
    .option('--expires <duration>', 'lifetime such as 30m, 12h, 7d, 2w (default: never)')
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (flags: JsonFlag & { uses: string; expires?: string }) => {
      const output = processOutput(flags.json === true);
      const uses = Number(flags.uses);
      if (!Number.isInteger(uses) || uses < 1 || uses > 1_000_000) {
        throw new Error('--uses must be a whole number from 1 to 1000000');
      }
      const expiresInMs = flags.expires === undefined ? null : parseDuration(flags.expires);
      const created = (await runStorageOperation(
        'svc invites create',
        'invites.create',
        { uses, expiresInMs },
        flags,
        output,
      )) as { code: string; invite: InviteSummary };
      output.result(created, () => `${created.code}\n${describeInvite(created.invite)}`);
    });
  invites
    .command('list')
    .description('list invite codes (their prefixes; codes are shown only when created)')
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (flags: JsonFlag) => {
      const output = processOutput(flags.json === true);
      const list = (await runStorageOperation(
        'svc invites list',
        'invites.list',
        {},
        flags,
        output,
      )) as InviteSummary[];
      output.result(list, () =>
        list.length === 0 ? 'no invite codes' : list.map(describeInvite).join('\n'),
      );
    });
  invites
    .command('revoke')
    .description('revoke an invite code (the code itself, or its id from `svc invites list`)')
    .argument('<code>', 'the invite code or its id')
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (code: string, flags: JsonFlag) => {
      const output = processOutput(flags.json === true);
      const result = (await runStorageOperation(
        'svc invites revoke',
        'invites.revoke',
        { code },
        flags,
        output,
      )) as {
        revoked: boolean;
      };
      if (!result.revoked) throw new Error('no live invite code matches');
      output.result(result, () => 'revoked');
    });
}
