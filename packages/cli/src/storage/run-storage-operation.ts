import type { Lifecycle } from '@svc/composition';
import type { Output } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { type NewDataDir, storageSettingsFrom } from './storage-settings.js';

/**
 * Runs a storage operation where the storage is: through the control socket of a server holding the embedded
 * engines, else on stores opened here (migrated first) and closed after. Says on stderr which it did and
 * which data dir or servers it opened. The server's modules load only here, when a storage command runs.
 */
export async function runStorageOperation(
  commandLine: string,
  operation: string,
  args: Record<string, unknown>,
  flags: StorageFlags,
  output: Output,
  newDataDir: NewDataDir = 'refuse',
): Promise<unknown> {
  const { settings, opened } = await storageSettingsFrom(flags, newDataDir);
  const server = await import('@svc/http-server');
  if (server.holdsEmbeddedEngines(settings, 'engines')) {
    const answer = await server.sendControlCommand(settings.dataDir, operation, args);
    if (answer !== undefined) {
      if (!answer.ok) throw new Error(answer.error);
      output.error(
        `${commandLine}: handed to the running server (pid ${answer.pid}) through its control socket; ${opened}`,
      );
      return answer.result;
    }
  }
  const { STORAGE_OPERATIONS } = await import('./storage-operations.js');
  const run = STORAGE_OPERATIONS[operation];
  if (run === undefined) throw new Error(`unknown storage operation ${operation}`);
  output.error(`${commandLine}: ${opened}`);
  const { default: pino } = await import('pino');
  const { LifecycleToken, migrateStores } = await import('@svc/composition');
  const container = server.createContainer({ settings, logger: pino({ level: 'warn' }), storage: 'engines' });
  try {
    // Every operation works on the current schema; migrate is the one that brings it there.
    if (operation !== 'migrate') await migrateStores(container);
    return await run(container, args);
  } finally {
    await container.get<Lifecycle>(LifecycleToken).closeAll();
  }
}
