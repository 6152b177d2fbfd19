import { teamsSuite } from './teams.suite.js';

teamsSuite('pglite');
