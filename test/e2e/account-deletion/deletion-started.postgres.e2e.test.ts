import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runDeletionStartedSuite } from './deletion-started.suite.js';

runDeletionStartedSuite('postgres', { skip: postgresServerSkipReason !== undefined, raceOnServer: true });
