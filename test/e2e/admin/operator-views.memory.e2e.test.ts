import { runOperatorViewsSuite } from './operator-views.suite.js';

runOperatorViewsSuite('memory');
