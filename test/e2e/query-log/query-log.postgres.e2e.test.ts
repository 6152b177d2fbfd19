import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runQueryLogSuite } from './query-log.suite.js';

runQueryLogSuite('postgres', { skip: postgresServerSkipReason !== undefined });
