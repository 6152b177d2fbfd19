import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { MemoryIdentityStore, postgresIdentityRepositories } from '../src/index.js';
import {
  type PasskeysUnderTest,
  runPasskeyRepositoriesContract,
} from './contracts/passkey-repositories.contract.js';

runPasskeyRepositoriesContract('memory', async () => ({
  repositories: new MemoryIdentityStore().repositories(),
  dispose: async () => undefined,
}));

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<PasskeysUnderTest> => {
  const engine = await open();
  return { repositories: postgresIdentityRepositories(engine.database.pool), dispose: engine.dispose };
};

runPasskeyRepositoriesContract('PGlite', onEngine(openPglite));
runPasskeyRepositoriesContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
