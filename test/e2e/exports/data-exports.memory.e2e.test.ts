import { runDataExportSuite } from './data-exports.suite.js';

runDataExportSuite('memory');
