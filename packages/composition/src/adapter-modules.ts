import type { StorageCallTracer } from '@svc/adapters';
import type { ContainerModule } from 'inversify';
import type { AdapterLog, AdapterSettings } from './adapter-settings.js';
import { clickhouseModule } from './clickhouse.module.js';
import { dataDirModule } from './development-signing-key.js';
import type { Lifecycle } from './lifecycle.js';
import { mailModule } from './mail.module.js';
import { memoryModule } from './memory.module.js';
import { natsModule } from './nats.module.js';
import { postgresModule } from './postgres.module.js';

/** Which family of adapters backs the stores: real engines (embedded or servers) or memory. */
export type StorageKind = 'engines' | 'memory';

/** What the adapter families need besides the settings. */
export interface AdapterModuleOptions {
  lifecycle: Lifecycle;
  log: AdapterLog;
  tracer: StorageCallTracer;
}

/**
 * The adapter families a container loads: the memory family alone, or PostgreSQL, ClickHouse, the bus and
 * mail, each of which picks its server or its embedded stand-in from the settings.
 */
export function adapterModules(
  settings: AdapterSettings,
  storage: StorageKind,
  options: AdapterModuleOptions,
): ContainerModule[] {
  const { lifecycle, log } = options;
  if (storage === 'memory') return [memoryModule(lifecycle)];
  return [
    postgresModule(settings.storage, options),
    clickhouseModule(settings.storage, settings.queryLogs, options),
    natsModule(settings.bus ?? {}, lifecycle),
    mailModule(settings.mail ?? {}, settings.storage.dataDir, log),
    dataDirModule(settings.storage.dataDir),
  ];
}

/**
 * True when the engine-backed families keep an engine in the data dir (PGlite or chdb), which one process holds
 * at a time: CLI storage commands then go through the control socket of the server holding it.
 */
export function holdsEmbeddedEngines(settings: AdapterSettings, storage: StorageKind): boolean {
  return (
    storage === 'engines' &&
    (settings.storage.databaseUrl === undefined || settings.storage.clickhouseUrl === undefined)
  );
}
