import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runSecretsAtRestSuite } from './secrets-at-rest.suite.js';

runSecretsAtRestSuite('postgres', { skip: postgresServerSkipReason !== undefined });
