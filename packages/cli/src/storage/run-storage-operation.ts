import {
  createContainer,
  holdsEmbeddedEngines,
  type Lifecycle,
  LifecycleToken,
  migrateStores,
  sendControlCommand,
} from '@svc/http-server';
import pino from 'pino';
import type { Output } from '../output.js';
import { type StorageFlags, settingsFrom } from '../settings-from-options.js';
import { STORAGE_OPERATIONS } from './storage-operations.js';

/**
 * Runs a storage operation where the storage is: through the control socket of a server holding the embedded
 * engines (saying so on stderr), else on stores opened here (migrated first) and closed after.
 */
export async function runStorageOperation(
  commandLine: string,
  operation: string,
  args: Record<string, unknown>,
  flags: StorageFlags,
  output: Output,
): Promise<unknown> {
  const run = STORAGE_OPERATIONS[operation];
  if (run === undefined) throw new Error(`unknown storage operation ${operation}`);
  const settings = settingsFrom(flags);
  if (holdsEmbeddedEngines(settings, 'engines')) {
    const answer = await sendControlCommand(settings.dataDir, operation, args);
    if (answer !== undefined) {
      if (!answer.ok) throw new Error(answer.error);
      output.error(
        `${commandLine}: handed to the running server (pid ${answer.pid}) through its control socket`,
      );
      return answer.result;
    }
  }
  const container = createContainer({ settings, logger: pino({ level: 'warn' }), storage: 'engines' });
  try {
    await migrateStores(container);
    return await run(container, args);
  } finally {
    await container.get<Lifecycle>(LifecycleToken).closeAll();
  }
}
