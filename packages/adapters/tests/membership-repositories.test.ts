import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { MemoryIdentityStore, postgresIdentityRepositories } from '../src/index.js';
import {
  type MembershipsUnderTest,
  runMembershipRepositoriesContract,
} from './contracts/membership-repositories.contract.js';

runMembershipRepositoriesContract('memory', async () => ({
  repositories: new MemoryIdentityStore().repositories(),
  dispose: async () => undefined,
}));

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<MembershipsUnderTest> => {
  const engine = await open();
  return { repositories: postgresIdentityRepositories(engine.database.pool), dispose: engine.dispose };
};

runMembershipRepositoriesContract('PGlite', onEngine(openPglite));
runMembershipRepositoriesContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
