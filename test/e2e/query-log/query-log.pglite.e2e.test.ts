import { runQueryLogSuite } from './query-log.suite.js';

runQueryLogSuite('pglite');
