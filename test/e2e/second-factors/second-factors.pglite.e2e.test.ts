import { runSecondFactorSuite } from './second-factors.suite.js';

runSecondFactorSuite('pglite');
