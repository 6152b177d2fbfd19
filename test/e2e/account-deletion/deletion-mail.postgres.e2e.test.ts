import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runDeletionMailSuite } from './deletion-mail.suite.js';

runDeletionMailSuite('postgres', { skip: postgresServerSkipReason !== undefined });
