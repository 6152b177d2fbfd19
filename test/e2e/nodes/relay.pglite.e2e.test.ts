import { runRelaySuite } from './relay.suite.js';

runRelaySuite('pglite');
