import { runOperatorSearchSuite } from './operator-search.suite.js';

runOperatorSearchSuite('pglite');
