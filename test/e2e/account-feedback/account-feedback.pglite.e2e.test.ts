import { runAccountFeedbackSuite } from './account-feedback.suite.js';

runAccountFeedbackSuite('pglite');
