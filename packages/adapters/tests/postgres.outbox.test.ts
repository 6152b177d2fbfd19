import {
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresOutboxRelay,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { runOutboxContract } from './contracts/outbox.contract.js';
import { openPglite, openPostgresServer, type TestDatabase } from './support/engines.js';
import { postgresServerSkipReason } from './support/postgres-server.js';
import type { RecordingBus } from './support/recording-bus.js';

runOutboxContract('memory', async (bus) => {
  const relay = new MemoryOutboxRelay(bus);
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(relay, {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return { uow, relay, otherRelay: relay, dispose: async () => undefined };
});

const onEngine = (open: () => Promise<TestDatabase>) => async (bus: RecordingBus) => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
    relay: new PostgresOutboxRelay(pool, bus),
    otherRelay: new PostgresOutboxRelay(pool, bus),
    dispose: engine.dispose,
  };
};

runOutboxContract('PGlite', onEngine(openPglite));
runOutboxContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
