import { runPasskeySuite } from './passkeys.suite.js';

runPasskeySuite('pglite');
