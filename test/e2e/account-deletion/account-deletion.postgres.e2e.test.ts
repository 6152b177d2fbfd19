import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runAccountDeletionSuite } from './account-deletion.suite.js';

runAccountDeletionSuite('postgres', { skip: postgresServerSkipReason !== undefined });
