import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runOperatorBlocksSuite } from './operator-blocks.suite.js';

runOperatorBlocksSuite('postgres', { skip: postgresServerSkipReason !== undefined });
