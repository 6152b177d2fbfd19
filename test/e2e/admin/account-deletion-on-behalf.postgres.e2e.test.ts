import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runAccountDeletionOnBehalfSuite } from './account-deletion-on-behalf.suite.js';

runAccountDeletionOnBehalfSuite('postgres', { skip: postgresServerSkipReason !== undefined });
