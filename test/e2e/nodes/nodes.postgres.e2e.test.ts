import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runNodesSuite } from './nodes.suite.js';

runNodesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
