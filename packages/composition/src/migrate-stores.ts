import { isDependencyUnavailable } from '@svc/adapters';
import type { Container } from 'inversify';
import { StoreMigrations } from './tokens.js';

/** Migrations applied by {@link migrateStores}, by store. */
export interface AppliedMigrations {
  postgres: string[];
  columnar: string[];
}

/**
 * Applies the pending migrations of every store the families bound (Postgres and ClickHouse at once; none for
 * memory). The columnar store stays unopened in this process when it was (see LazyColumnarStore).
 * With `onColumnarUnavailable`, a columnar store out of reach is reported to it instead of failing: the store
 * migrates on first use (serve keeps answering everything but logs and analytics while ClickHouse is down).
 */
export async function migrateStores(
  container: Container,
  options: { onColumnarUnavailable?: (error: unknown) => void } = {},
): Promise<AppliedMigrations> {
  const applied: AppliedMigrations = { postgres: [], columnar: [] };
  const stores = await container.getAllAsync<StoreMigrations>(StoreMigrations);
  await Promise.all(
    stores.map(async ({ store, migrate }) => {
      applied[store] = await migrate().catch((error: unknown) => {
        const reported = store === 'columnar' ? options.onColumnarUnavailable : undefined;
        if (reported === undefined || !isDependencyUnavailable(error)) throw error;
        reported(error);
        return [];
      });
    }),
  );
  return applied;
}
