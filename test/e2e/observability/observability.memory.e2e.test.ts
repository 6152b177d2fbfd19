import { runObservabilitySuite } from './observability.suite.js';

runObservabilitySuite('memory');
