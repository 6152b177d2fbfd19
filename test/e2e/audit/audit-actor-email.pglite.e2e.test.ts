import { runAuditActorEmailSuite } from './audit-actor-email.suite.js';

runAuditActorEmailSuite('pglite');
