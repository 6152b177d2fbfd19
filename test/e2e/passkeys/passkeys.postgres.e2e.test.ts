import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runPasskeySuite } from './passkeys.suite.js';

runPasskeySuite('postgres', { skip: postgresServerSkipReason !== undefined });
