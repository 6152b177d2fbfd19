import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runGuessingSuite } from './guessing.suite.js';

runGuessingSuite('postgres', { skip: postgresServerSkipReason !== undefined });
