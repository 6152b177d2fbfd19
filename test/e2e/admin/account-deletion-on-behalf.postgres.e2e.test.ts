import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runAccountDeletionOnBehalfSuite } from './account-deletion-on-behalf.suite.js';

runAccountDeletionOnBehalfSuite('postgres', { skip: postgresServerSkipReason !== undefined });
