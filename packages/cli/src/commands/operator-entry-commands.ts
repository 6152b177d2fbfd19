import type { SvcClient } from '@svc/sdk';
import type { Command } from 'commander';
import { type ApiContext, apiAction, apiOptions, confirm, table, wholeNumber } from '../api/api-command.js';
import { usageError } from '../output.js';

const STATUSES = ['live', 'removed', 'expired'] as const;
type EntryStatus = (typeof STATUSES)[number];

/** One kind of operator file entry as the CLI lists and removes it (`svc blocks`, `svc source-blocks`). */
export interface OperatorEntryCommands<Entry, Change> {
  /** `operator block`, as the prompts and descriptions say it. */
  noun: string;
  /** The file each change republishes (`operator blocks file`). */
  file: string;
  /** The entries' client resource. */
  resource(client: SvcClient): {
    list(options: { limit?: number; status?: EntryStatus }): { toArray(max: number): Promise<Entry[]> };
    remove(id: string): Promise<Change>;
  };
  columns: readonly string[];
  row(entry: Entry): string[];
  describeChange(verb: string, change: Change): string;
}

/** `an operator block`, `a source block`: the indefinite article the noun takes. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Adds `list` (newest first, auto-paging, by status) and `remove` (asks first unless --yes) to `group`. */
export function addListAndRemove<Entry, Change>(
  group: Command,
  entries: OperatorEntryCommands<Entry, Change>,
): void {
  apiOptions(
    group
      .command('list')
      .description(`list ${entries.noun}s, newest first`)
      .option('--status <status>', `only ${STATUSES.join(', ')} entries`)
      .option('--limit <n>', 'at most this many entries', '50'),
  ).action(
    apiAction(async ({ client, output }: ApiContext, flags: { status?: string; limit: string }) => {
      const status = STATUSES.find((known) => known === flags.status);
      if (flags.status !== undefined && status === undefined) {
        usageError(`--status must be one of ${STATUSES.join(', ')}`);
      }
      const limit = wholeNumber('--limit', flags.limit, 10_000);
      const list = await entries
        .resource(client)
        .list({ limit: Math.min(limit, 200), ...(status === undefined ? {} : { status }) })
        .toArray(limit);
      output.result(list, () =>
        table(
          entries.columns,
          list.map((entry) => entries.row(entry)),
        ),
      );
    }),
  );
  apiOptions(
    group
      .command('remove')
      .description(`remove ${withArticle(entries.noun)} (republishes the ${entries.file})`)
      .argument('<id>', 'the block’s id')
      .option('--yes', 'do not ask for confirmation'),
  ).action(
    apiAction(async ({ client, output }: ApiContext, id: string, flags: { yes?: boolean }) => {
      if (!(await confirm(`remove ${entries.noun} ${id}`, flags.yes))) {
        output.error('not removed');
        process.exitCode = 1;
        return;
      }
      const change = await entries.resource(client).remove(id);
      output.result(change, () => entries.describeChange('removed', change));
    }),
  );
}
