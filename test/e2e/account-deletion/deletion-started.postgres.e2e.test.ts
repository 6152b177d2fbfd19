import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runDeletionStartedSuite } from './deletion-started.suite.js';

runDeletionStartedSuite('postgres', { skip: postgresServerSkipReason !== undefined, raceOnServer: true });
