import { runDataExportChunkSuite } from './data-export-chunks.suite.js';

runDataExportChunkSuite('pglite');
