import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runSecretsAtRestSuite } from './secrets-at-rest.suite.js';

runSecretsAtRestSuite('postgres', { skip: postgresServerSkipReason !== undefined });
