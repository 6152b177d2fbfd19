import { isDependencyUnavailable, migratePostgres, type PostgresDatabase } from '@svc/adapters';
import { ColumnarStore } from '@svc/domain';
import type { Container } from 'inversify';
import { PostgresToken } from './tokens.js';

/** Migrations applied by {@link migrateStores}, by store. */
export interface AppliedMigrations {
  postgres: string[];
  columnar: string[];
}

/**
 * Applies pending Postgres and ClickHouse migrations of an engine-backed container (no-op for memory), the two
 * stores at once. The columnar store stays unopened in this process when it was (see LazyColumnarStore).
 * With `onColumnarUnavailable`, a columnar store out of reach is reported to it instead of failing: the store
 * migrates on first use (serve keeps answering everything but logs and analytics while ClickHouse is down).
 */
export async function migrateStores(
  container: Container,
  options: { onColumnarUnavailable?: (error: unknown) => void } = {},
): Promise<AppliedMigrations> {
  if (!container.isBound(PostgresToken)) return { postgres: [], columnar: [] };
  const [postgres, columnar] = await Promise.all([
    container.getAsync<PostgresDatabase>(PostgresToken).then((database) => migratePostgres(database.pool)),
    container
      .getAsync<ColumnarStore>(ColumnarStore)
      .then((store) => store.migrate())
      .catch((error: unknown) => {
        if (options.onColumnarUnavailable === undefined || !isDependencyUnavailable(error)) throw error;
        options.onColumnarUnavailable(error);
        return [];
      }),
  ]);
  return { postgres, columnar };
}
