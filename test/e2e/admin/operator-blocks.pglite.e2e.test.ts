import { runOperatorBlocksSuite } from './operator-blocks.suite.js';

runOperatorBlocksSuite('pglite');
