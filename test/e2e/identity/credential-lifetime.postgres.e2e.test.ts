import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runCredentialLifetimeSuite } from './credential-lifetime.suite.js';

runCredentialLifetimeSuite('postgres', { skip: postgresServerSkipReason !== undefined });
