import { runNodesSuite } from './nodes.suite.js';

runNodesSuite('pglite');
