import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runObservabilitySuite } from './observability.suite.js';

runObservabilitySuite('postgres', { skip: postgresServerSkipReason !== undefined });
