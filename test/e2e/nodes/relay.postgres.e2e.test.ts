import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runRelaySuite } from './relay.suite.js';

runRelaySuite('postgres', { skip: postgresServerSkipReason !== undefined });
