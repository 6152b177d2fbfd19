import { runAgentKitSuite } from './agent-kit.suite.js';

runAgentKitSuite('pglite');
