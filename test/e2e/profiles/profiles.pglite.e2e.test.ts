import { runProfilesSuite } from './profiles.suite.js';

runProfilesSuite('pglite');
