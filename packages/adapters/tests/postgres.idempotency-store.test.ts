import { openPglite, openPostgresServer } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { MemoryIdempotencyStore, PostgresIdempotencyStore } from '../src/index.js';
import { runIdempotencyStoreContract } from './contracts/idempotency-store.contract.js';

runIdempotencyStoreContract('memory', async () => ({
  store: new MemoryIdempotencyStore(),
  dispose: async () => undefined,
}));

runIdempotencyStoreContract('PGlite', async () => {
  const engine = await openPglite();
  return { store: new PostgresIdempotencyStore(engine.database.pool), dispose: engine.dispose };
});

runIdempotencyStoreContract(
  'PostgreSQL server',
  async () => {
    const engine = await openPostgresServer();
    return { store: new PostgresIdempotencyStore(engine.database.pool), dispose: engine.dispose };
  },
  { skip: postgresServerSkipReason !== undefined },
);
