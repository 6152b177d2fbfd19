import { runAccountDeletionOnBehalfSuite } from './account-deletion-on-behalf.suite.js';

runAccountDeletionOnBehalfSuite('pglite');
