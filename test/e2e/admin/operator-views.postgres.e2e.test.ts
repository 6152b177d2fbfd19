import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runOperatorViewsSuite } from './operator-views.suite.js';

runOperatorViewsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
