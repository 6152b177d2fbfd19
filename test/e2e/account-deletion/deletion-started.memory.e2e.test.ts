import { runDeletionStartedSuite } from './deletion-started.suite.js';

runDeletionStartedSuite('memory');
