import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runQueryLogSuite } from './query-log.suite.js';

runQueryLogSuite('postgres', { skip: postgresServerSkipReason !== undefined });
