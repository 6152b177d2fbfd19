import type { KeyObject } from 'node:crypto';
import { generateProfileSigningKey, loadOrCreateDevelopmentSigningKey } from '@svc/adapters';
import { ContainerModule } from 'inversify';

/**
 * The profile signing key of a development server without SVC_PROFILE_SIGNING_KEYS: kept in the data dir by
 * the engine-backed families (it outlives a restart, as the nodes that trust it do), generated in memory by the
 * memory family, which has no data dir. Bound by the family; the use cases never ask which one is in use.
 */
export const DevelopmentSigningKey = Symbol.for('svc.DevelopmentSigningKey');
export interface DevelopmentSigningKey {
  key(): Promise<KeyObject>;
}

/** The development signing key of one process's memory (the memory family). */
export function inMemorySigningKey(): DevelopmentSigningKey {
  let key: KeyObject | undefined;
  return {
    key: async () => {
      key ??= generateProfileSigningKey();
      return key;
    },
  };
}

/** The development signing key kept in the data dir (`<data-dir>`, created on first use). */
export function dataDirModule(dataDir: string): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<DevelopmentSigningKey>(DevelopmentSigningKey).toConstantValue({
      key: () => loadOrCreateDevelopmentSigningKey(dataDir),
    });
  });
}
