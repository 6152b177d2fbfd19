import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runAgentKitSuite } from './agent-kit.suite.js';

runAgentKitSuite('postgres', { skip: postgresServerSkipReason !== undefined });
