import type { SourceBlock, SourceBlockChange, SourceBlockCreateRequest } from '@svc/sdk';
import type { Command } from 'commander';
import { apiAction, apiOptions, collect } from '../api/api-command.js';
import { usageError } from '../output.js';
import { parseDuration } from './invites.command.js';
import { addListAndRemove } from './operator-entry-commands.js';

function describeSource(block: SourceBlock): string[] {
  const scope = [...block.pops, ...block.jurisdictions].join(',') || 'fleet';
  const state = block.removed_at !== null ? `removed ${block.removed_at}` : `expires ${block.expires_at}`;
  return [block.id, block.cidr, scope, state, block.reason];
}

function describeChange(verb: string, change: SourceBlockChange): string {
  return `${verb} ${change.block.cidr} (${change.block.id}); operator sources file version ${change.file_version}`;
}

/** `svc source-blocks create|list|remove` (RUNNER.md): abusive-source blocks through the API (spec 2.9). */
export function registerSourceBlocks(program: Command): void {
  const sources = program
    .command('source-blocks')
    .description('abusive-source blocks (API client, scope admin)');
  apiOptions(
    sources
      .command('create')
      .alias('add')
      .description('block a source prefix (stored as its masked prefix) until it expires')
      .argument('<cidr>', 'IPv4 or IPv6 prefix, such as 203.0.113.0/24')
      .requiredOption('--reason <text>', 'why (operator-visible)')
      .option('--expires-at <date-time>', 'RFC 3339 expiry')
      .option('--expires <duration>', 'expiry from now, such as 12h, 7d, 2w')
      .option('--pop <id>', 'scope by PoP (repeatable)', collect, [])
      .option('--jurisdiction <code>', 'scope by jurisdiction (repeatable)', collect, [])
      .option('--idempotency-key <key>', 'make a retried create answer the first one'),
  ).action(
    apiAction(
      async (
        { client, output },
        cidr: string,
        flags: {
          reason: string;
          expiresAt?: string;
          expires?: string;
          pop: string[];
          jurisdiction: string[];
          idempotencyKey?: string;
        },
      ) => {
        if ((flags.expiresAt === undefined) === (flags.expires === undefined)) {
          usageError('give the expiry as exactly one of --expires-at or --expires');
        }
        let expiresAt = flags.expiresAt;
        if (flags.expires !== undefined) {
          let ms = 0;
          try {
            ms = parseDuration(flags.expires);
          } catch (error) {
            usageError((error as Error).message);
          }
          expiresAt = new Date(Date.now() + ms).toISOString();
        }
        const request: SourceBlockCreateRequest = {
          cidr,
          reason: flags.reason,
          expires_at: expiresAt ?? '',
          ...(flags.pop.length === 0 ? {} : { pops: flags.pop }),
          ...(flags.jurisdiction.length === 0 ? {} : { jurisdictions: flags.jurisdiction }),
        };
        const change = await client.admin.sourceBlocks.create(
          request,
          flags.idempotencyKey === undefined ? {} : { idempotencyKey: flags.idempotencyKey },
        );
        output.result(change, () => describeChange('blocked', change));
      },
    ),
  );
  addListAndRemove(sources, {
    noun: 'source block',
    file: 'operator sources file',
    resource: (client) => client.admin.sourceBlocks,
    columns: ['ID', 'CIDR', 'SCOPE', 'STATE', 'REASON'],
    row: describeSource,
    describeChange,
  });
}
