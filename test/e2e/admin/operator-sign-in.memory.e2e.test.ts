import { runOperatorSignInSuite } from './operator-sign-in.suite.js';

runOperatorSignInSuite('memory');
