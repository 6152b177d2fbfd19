import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runAccountFeedbackSuite } from './account-feedback.suite.js';

runAccountFeedbackSuite('postgres', { skip: postgresServerSkipReason !== undefined });
