import { runNodeLogsSuite } from './node-logs.suite.js';

runNodeLogsSuite('pglite');
