import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runProfilesSuite } from './profiles.suite.js';

runProfilesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
