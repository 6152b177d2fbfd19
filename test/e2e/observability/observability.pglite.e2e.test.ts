import { runObservabilitySuite } from './observability.suite.js';

runObservabilitySuite('pglite');
