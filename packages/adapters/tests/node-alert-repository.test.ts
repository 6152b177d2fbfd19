import {
  InProcessMessageBus,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { runNodeAlertContract } from './contracts/node-alerts.contract.js';
import type { NodeEngine } from './contracts/node-repository.contract.js';
import { openPglite, openPostgresServer, type TestDatabase } from './support/engines.js';
import { postgresServerSkipReason } from './support/postgres-server.js';

runNodeAlertContract('memory', async () => {
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(new MemoryOutboxRelay(new InProcessMessageBus()), {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return { uow, createOrganisation: async () => undefined, dispose: async () => undefined };
});

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<NodeEngine> => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
    createOrganisation: async (id) => {
      await pool.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())', [
        id,
        'test',
      ]);
    },
    dispose: engine.dispose,
  };
};

runNodeAlertContract('PGlite', onEngine(openPglite));
runNodeAlertContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
  concurrent: true,
});
