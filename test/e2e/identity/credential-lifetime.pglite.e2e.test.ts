import { runCredentialLifetimeSuite } from './credential-lifetime.suite.js';

runCredentialLifetimeSuite('pglite');
