import { runOperatorSearchSuite } from './operator-search.suite.js';

runOperatorSearchSuite('memory');
