import { runIdentitySuite } from './identity.suite.js';

runIdentitySuite('pglite');
