import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runOperatorSearchSuite } from './operator-search.suite.js';

runOperatorSearchSuite('postgres', { skip: postgresServerSkipReason !== undefined });
