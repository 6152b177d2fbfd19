import { runAccountFeedbackContract } from './contracts/account-feedback.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage(
  'Preferences, ClientError and Feedback repositories contract',
  runAccountFeedbackContract,
);
