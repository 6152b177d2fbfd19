import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runListReportsSuite } from './list-reports.suite.js';

runListReportsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
