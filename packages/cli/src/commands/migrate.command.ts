import type { AppliedMigrations } from '@svc/composition';
import type { Command } from 'commander';
import { type Output, processOutput } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { runStorageOperation } from '../storage/run-storage-operation.js';

function describe(applied: AppliedMigrations): string {
  const all = [
    ...applied.postgres.map((id) => `postgres ${id}`),
    ...applied.columnar.map((id) => `columnar ${id}`),
  ];
  return all.length === 0 ? 'schema is up to date' : `applied: ${all.join(', ')}`;
}

/**
 * Runs migrations here, or hands them to the server holding the embedded engines. The one storage command that
 * may start a new data dir: it is how one is prepared before a first start.
 */
export async function runMigrate(flags: StorageFlags, output: Output): Promise<AppliedMigrations> {
  return (await runStorageOperation(
    'svc migrate',
    'migrate',
    {},
    flags,
    output,
    'create',
  )) as AppliedMigrations;
}

/** `svc migrate`. */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply the Postgres and ClickHouse schema migrations')
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (flags: StorageFlags & { json?: boolean }) => {
      const output = processOutput(flags.json === true);
      const applied = await runMigrate(flags, output);
      output.result(applied, () => describe(applied));
    });
}
