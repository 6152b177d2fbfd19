import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runOperatorViewsSuite } from './operator-views.suite.js';

runOperatorViewsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
