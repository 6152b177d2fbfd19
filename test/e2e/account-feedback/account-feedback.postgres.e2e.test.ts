import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runAccountFeedbackSuite } from './account-feedback.suite.js';

runAccountFeedbackSuite('postgres', { skip: postgresServerSkipReason !== undefined });
