import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runDataExportChunkSuite } from './data-export-chunks.suite.js';

runDataExportChunkSuite('postgres', { skip: postgresServerSkipReason !== undefined });
