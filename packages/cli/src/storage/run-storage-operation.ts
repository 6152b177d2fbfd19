import { untracedStorageCalls } from '@svc/adapters';
import type { Lifecycle } from '@svc/composition';
import type { Output } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { type NewDataDir, storageSettingsFrom } from './storage-settings.js';

/**
 * Runs a storage operation where the storage is: through the control socket of a server holding the embedded
 * engines, else on stores opened here (migrated first) and closed after. Says on stderr which it did and
 * which data dir or servers it opened. The composition's modules load only here, when a storage command runs.
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
  const composition = await import('@svc/composition');
  if (composition.holdsEmbeddedEngines(settings, 'engines')) {
    const answer = await composition.sendControlCommand(settings.storage.dataDir, operation, args);
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
  const { composeContainer, LifecycleToken, migrateStores } = composition;
  const logger = pino({ level: 'warn' });
  // The use cases on the adapter families, as the server has them, without what serving HTTP adds (the token
  // cache, the nodes' links, the background jobs): an operation is one call, then everything is closed.
  const container = composeContainer({
    settings,
    storage: 'engines',
    log: { info: (line) => logger.info(line), warn: (line) => logger.warn(line) },
    tracer: untracedStorageCalls,
  });
  try {
    // Every operation works on the current schema; migrate is the one that brings it there.
    if (operation !== 'migrate') await migrateStores(container);
    return await run(container, args);
  } finally {
    await container.get<Lifecycle>(LifecycleToken).closeAll();
  }
}
