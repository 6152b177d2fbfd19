import { runSecondFactorAuditSuite } from './second-factor-audit.suite.js';

runSecondFactorAuditSuite('pglite');
