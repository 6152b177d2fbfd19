import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runOperatorBlocksSuite } from './operator-blocks.suite.js';

runOperatorBlocksSuite('postgres', { skip: postgresServerSkipReason !== undefined });
