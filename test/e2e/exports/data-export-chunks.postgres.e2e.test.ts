import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runDataExportChunkSuite } from './data-export-chunks.suite.js';

runDataExportChunkSuite('postgres', { skip: postgresServerSkipReason !== undefined });
