import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runSecondFactorSuite } from './second-factors.suite.js';

runSecondFactorSuite('postgres', { skip: postgresServerSkipReason !== undefined });
