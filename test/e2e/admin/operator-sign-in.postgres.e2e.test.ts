import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runOperatorSignInSuite } from './operator-sign-in.suite.js';

runOperatorSignInSuite('postgres', { skip: postgresServerSkipReason !== undefined });
