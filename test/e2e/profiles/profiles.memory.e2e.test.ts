import { runProfilesSuite } from './profiles.suite.js';

runProfilesSuite('memory');
