import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runDataExportSuite } from './data-exports.suite.js';

runDataExportSuite('postgres', { skip: postgresServerSkipReason !== undefined });
