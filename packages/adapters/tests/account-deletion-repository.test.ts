import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { MemoryIdentityStore, postgresIdentityRepositories } from '../src/index.js';
import {
  type AccountDeletionUnderTest,
  runAccountDeletionContract,
} from './contracts/account-deletion.contract.js';

runAccountDeletionContract('memory', async () => ({
  repositories: new MemoryIdentityStore().repositories(),
  dispose: async () => undefined,
}));

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<AccountDeletionUnderTest> => {
  const engine = await open();
  return { repositories: postgresIdentityRepositories(engine.database.pool), dispose: engine.dispose };
};

runAccountDeletionContract('PGlite', onEngine(openPglite));
runAccountDeletionContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
