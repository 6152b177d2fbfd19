import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runIdentitySuite } from './identity.suite.js';

runIdentitySuite('postgres', { skip: postgresServerSkipReason !== undefined });
