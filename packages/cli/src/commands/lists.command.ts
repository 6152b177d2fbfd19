import { resolve } from 'node:path';
import { LIST_FORMATS, type ListRefreshReport, type ListVersionOutcome } from '@svc/domain';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { processOutput } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { runStorageOperation } from '../storage/run-storage-operation.js';

type JsonFlag = StorageFlags & { json?: boolean };

function listId(value: string, previous: number[] = []): number[] {
  const id = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(id) || id < 1 || id > 65535)
    throw new InvalidArgumentError('must be a list id (1 to 65535)');
  return [...previous, id];
}

function describeVersion(list: ListVersionOutcome): string {
  return `list ${list.list_id}: version ${list.version}${list.created ? ' (new)' : ''}, ${list.entries} entries, sha256 ${list.sha256}`;
}

function describeRefresh(report: ListRefreshReport): string {
  if (report.skipped !== undefined) return 'another server is refreshing the lists; nothing was done';
  return [
    ...report.sources.map(
      (source) =>
        `source ${source.id}: ${source.status}${source.changed ? ' (changed)' : ''}${source.entries === null ? '' : `, ${source.entries} entries`}${source.invalid ? `, ${source.invalid} invalid lines` : ''}${source.error === null ? '' : ` – ${source.error}`}`,
    ),
    ...report.lists.map(describeVersion),
  ].join('\n');
}

/**
 * `svc lists refresh [--list ID…]` and `svc lists import --list ID [--format F] FILE`: the list pipeline as
 * storage commands, on the configured stores or through the running server holding the data dir.
 */
export function registerLists(program: Command): void {
  const lists = program
    .command('lists')
    .description('compiled blocklists: refresh from their sources, import a file');
  lists
    .command('refresh')
    .description(
      'fetch and compile the catalogue’s sources now (a failing source keeps its last good version)',
    )
    .option('--list <id>', 'only this list (repeat for several)', listId)
    .option(
      '--allow-shrink',
      'accept a source with no valid entry or fewer than half its last good entries (HTML and binary bodies stay refused)',
    )
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (flags: JsonFlag & { list?: number[]; allowShrink?: boolean }) => {
      const output = processOutput(flags.json === true);
      const report = (await runStorageOperation(
        'svc lists refresh',
        'lists.refresh',
        {
          ...(flags.list === undefined ? {} : { lists: flags.list }),
          ...(flags.allowShrink === true ? { allowShrink: true } : {}),
        },
        flags,
        output,
      )) as ListRefreshReport;
      output.result(report, () => describeRefresh(report));
    });
  lists
    .command('import')
    .description('compile FILE as the whole content of a list (for servers without internet access)')
    .argument('<file>', 'the list file')
    .requiredOption('--list <id>', 'the list id', (value: string) => listId(value)[0])
    .addOption(
      new Option('--format <format>', 'how FILE is written (default: its first source’s format)').choices(
        LIST_FORMATS,
      ),
    )
    .option(
      '--allow-shrink',
      'accept a file with no valid entry or fewer than half the entries of the version in force (HTML and binary files stay refused)',
    )
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nAn HTML page, a binary file, a file with no valid entry or one with fewer than half the entries of the\nversion in force is refused (exit 1, problem code list_refused) and that version stays in force.',
    )
    .action(
      async (file: string, flags: JsonFlag & { list: number; format?: string; allowShrink?: boolean }) => {
        const output = processOutput(flags.json === true);
        const imported = (await runStorageOperation(
          'svc lists import',
          'lists.import',
          {
            list: flags.list,
            file: resolve(file),
            ...(flags.format === undefined ? {} : { format: flags.format }),
            ...(flags.allowShrink === true ? { allowShrink: true } : {}),
          },
          flags,
          output,
        )) as ListVersionOutcome & { stats: { invalid: number; ignored: number } };
        output.result(
          imported,
          () =>
            `${describeVersion(imported)} (${imported.stats.invalid} invalid, ${imported.stats.ignored} ignored lines)`,
        );
      },
    );
}
