import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runAccountDeletionSuite } from './account-deletion.suite.js';

runAccountDeletionSuite('postgres', { skip: postgresServerSkipReason !== undefined });
