import { runSecondFactorSuite } from './second-factors.suite.js';

runSecondFactorSuite('memory');
