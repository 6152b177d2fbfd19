import { runAccountFeedbackSuite } from './account-feedback.suite.js';

runAccountFeedbackSuite('memory');
