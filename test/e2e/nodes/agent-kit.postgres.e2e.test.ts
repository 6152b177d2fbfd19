import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runAgentKitSuite } from './agent-kit.suite.js';

runAgentKitSuite('postgres', { skip: postgresServerSkipReason !== undefined });
