import type { OperatorBlock, OperatorBlockChange, OperatorBlockCreateRequest } from '@svc/sdk';
import type { Command } from 'commander';
import { apiAction, apiOptions, collect } from '../api/api-command.js';
import { usageError } from '../output.js';
import { addListAndRemove } from './operator-entry-commands.js';

const REASONS = ['legal_order', 'abuse', 'csam'];

function describeBlock(block: OperatorBlock): string[] {
  const scope = [...block.pops, ...block.jurisdictions].join(',') || 'fleet';
  const state =
    block.removed_at !== null ? `removed ${block.removed_at}` : `expires ${block.expires_at ?? 'never'}`;
  return [block.id, block.pattern, block.reason_code, scope, state];
}

function describeChange(verb: string, change: OperatorBlockChange): string {
  return `${verb} ${change.block.pattern} (${change.block.id}); operator blocks file version ${change.file_version}`;
}

/** `svc blocks create|list|remove` (RUNNER.md): operator domain blocks through the API (spec 4.10). */
export function registerOperatorBlocks(program: Command): void {
  const blocks = program.command('blocks').description('operator domain blocks (API client, scope admin)');
  apiOptions(
    blocks
      .command('create')
      .alias('add')
      .description('block a pattern (profile rule syntax) for every profile in scope')
      .argument('<pattern>', 'example.com, =example.com or *.example.com')
      .requiredOption('--reason-code <code>', `one of ${REASONS.join(', ')}`)
      .option('--public-ref <text>', 'public reference edges may show in EDE text (at most 100 chars)')
      .option('--note <text>', 'internal note, never published (at most 1000 chars)')
      .option('--pop <id>', 'scope by PoP (repeatable; not for csam)', collect, [])
      .option('--jurisdiction <code>', 'scope by jurisdiction (repeatable; not for csam)', collect, [])
      .option('--expires-at <date-time>', 'RFC 3339 time when the entry leaves the file')
      .option('--idempotency-key <key>', 'make a retried create answer the first one'),
  ).action(
    apiAction(
      async (
        { client, output },
        pattern: string,
        flags: {
          reasonCode: string;
          publicRef?: string;
          note?: string;
          pop: string[];
          jurisdiction: string[];
          expiresAt?: string;
          idempotencyKey?: string;
        },
      ) => {
        if (!REASONS.includes(flags.reasonCode))
          usageError(`--reason-code must be one of ${REASONS.join(', ')}`);
        const request: OperatorBlockCreateRequest = {
          pattern,
          reason_code: flags.reasonCode as OperatorBlockCreateRequest['reason_code'],
          ...(flags.publicRef === undefined ? {} : { public_ref: flags.publicRef }),
          ...(flags.note === undefined ? {} : { note: flags.note }),
          ...(flags.pop.length === 0 ? {} : { pops: flags.pop }),
          ...(flags.jurisdiction.length === 0 ? {} : { jurisdictions: flags.jurisdiction }),
          ...(flags.expiresAt === undefined ? {} : { expires_at: flags.expiresAt }),
        };
        const change = await client.admin.operatorBlocks.create(
          request,
          flags.idempotencyKey === undefined ? {} : { idempotencyKey: flags.idempotencyKey },
        );
        output.result(change, () => describeChange('blocked', change));
      },
    ),
  );
  addListAndRemove(blocks, {
    noun: 'operator block',
    file: 'operator blocks file',
    resource: (client) => client.admin.operatorBlocks,
    columns: ['ID', 'PATTERN', 'REASON', 'SCOPE', 'STATE'],
    row: describeBlock,
    describeChange,
  });
}
