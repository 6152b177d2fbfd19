import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runNodesSuite } from './nodes.suite.js';

runNodesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
