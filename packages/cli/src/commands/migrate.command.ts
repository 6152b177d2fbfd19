import {
  type AppliedMigrations,
  createContainer,
  holdsEmbeddedEngines,
  type Lifecycle,
  LifecycleToken,
  migrateStores,
  sendControlCommand,
} from '@svc/http-server';
import type { Command } from 'commander';
import pino from 'pino';
import { type Output, processOutput } from '../output.js';
import { type StorageFlags, settingsFrom } from '../settings-from-options.js';

function describe(applied: AppliedMigrations): string {
  const all = [
    ...applied.postgres.map((id) => `postgres ${id}`),
    ...applied.columnar.map((id) => `columnar ${id}`),
  ];
  return all.length === 0 ? 'schema is up to date' : `applied: ${all.join(', ')}`;
}

/** Runs migrations here, or hands them to the server holding the embedded engines. */
export async function runMigrate(flags: StorageFlags, output: Output): Promise<AppliedMigrations> {
  const settings = settingsFrom(flags);
  if (holdsEmbeddedEngines(settings, 'engines')) {
    const answer = await sendControlCommand(settings.dataDir, 'migrate');
    if (answer !== undefined) {
      if (!answer.ok) throw new Error(answer.error);
      output.error(
        `svc migrate: handed to the running server (pid ${answer.pid}) through its control socket`,
      );
      return answer.result as AppliedMigrations;
    }
  }
  const container = createContainer({ settings, logger: pino({ level: 'warn' }), storage: 'engines' });
  try {
    return await migrateStores(container);
  } finally {
    await container.get<Lifecycle>(LifecycleToken).closeAll();
  }
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
