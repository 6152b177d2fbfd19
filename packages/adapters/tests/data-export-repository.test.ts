import {
  InProcessMessageBus,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import {
  type DataExportEngine,
  runDataExportRepositoryContract,
} from './contracts/data-export-repository.contract.js';
import { openPglite, openPostgresServer, type TestDatabase } from './support/engines.js';
import { postgresServerSkipReason } from './support/postgres-server.js';

runDataExportRepositoryContract('memory', async () => {
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(new MemoryOutboxRelay(new InProcessMessageBus()), {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return { uow, dispose: async () => undefined };
});

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<DataExportEngine> => {
  const engine = await open();
  return {
    uow: new PostgresUnitOfWork(engine.database.pool, { repositories: postgresTransactionRepositories }),
    dispose: engine.dispose,
  };
};

runDataExportRepositoryContract('PGlite', onEngine(openPglite));
runDataExportRepositoryContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
