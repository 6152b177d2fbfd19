import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runOperatorSignInSuite } from './operator-sign-in.suite.js';

runOperatorSignInSuite('postgres', { skip: postgresServerSkipReason !== undefined });
