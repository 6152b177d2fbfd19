import { runDeletionMailSuite } from './deletion-mail.suite.js';

runDeletionMailSuite('memory');
