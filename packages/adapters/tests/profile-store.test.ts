import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import {
  InProcessMessageBus,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresProfileStore,
  type PostgresProfileStoreOptions,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { type ProfileStoreEngine, runProfileStoreContract } from './contracts/profile-store.contract.js';

runProfileStoreContract('memory', async () => {
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(new MemoryOutboxRelay(new InProcessMessageBus()), {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return {
    store: stores.profiles.repository(),
    uow,
    createOrganisation: async () => undefined,
    dispose: async () => undefined,
  };
});

const onEngine =
  (open: () => Promise<TestDatabase>, options: PostgresProfileStoreOptions) =>
  async (): Promise<ProfileStoreEngine> => {
    const engine = await open();
    const { pool } = engine.database;
    return {
      store: new PostgresProfileStore(pool, options),
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

runProfileStoreContract('PGlite', onEngine(openPglite, {}));
runProfileStoreContract(
  'PGlite, two reads in flight, batches of 4',
  onEngine(openPglite, { maxInFlight: 2, maxBatch: 4 }),
);
const serverOptions = { skip: postgresServerSkipReason !== undefined };
runProfileStoreContract('PostgreSQL server', onEngine(openPostgresServer, {}), serverOptions);
runProfileStoreContract(
  'PostgreSQL server, two reads in flight, batches of 4',
  onEngine(openPostgresServer, { maxInFlight: 2, maxBatch: 4 }),
  serverOptions,
);
