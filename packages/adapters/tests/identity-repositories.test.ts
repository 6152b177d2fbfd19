import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { MemoryIdentityStore, postgresIdentityRepositories } from '../src/index.js';
import {
  type IdentityUnderTest,
  runIdentityRepositoriesContract,
} from './contracts/identity-repositories.contract.js';

runIdentityRepositoriesContract('memory', async () => {
  const store = new MemoryIdentityStore();
  return {
    repositories: store.repositories(),
    organisationCount: async () => {
      const tables = store.snapshot() as { organisations: Map<string, unknown> };
      return tables.organisations.size;
    },
    dispose: async () => undefined,
  };
});

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<IdentityUnderTest> => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    repositories: postgresIdentityRepositories(pool),
    organisationCount: async () =>
      Number((await pool.query<{ count: string }>('SELECT count(*) FROM organisations')).rows[0]?.count),
    dispose: engine.dispose,
  };
};

runIdentityRepositoriesContract('PGlite', onEngine(openPglite));
runIdentityRepositoriesContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
