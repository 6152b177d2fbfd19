import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runDataExportSuite } from './data-exports.suite.js';

runDataExportSuite('postgres', { skip: postgresServerSkipReason !== undefined });
