import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runListReportsSuite } from './list-reports.suite.js';

runListReportsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
