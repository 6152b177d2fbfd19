import { runAccountDeletionSuite } from './account-deletion.suite.js';

runAccountDeletionSuite('memory');
