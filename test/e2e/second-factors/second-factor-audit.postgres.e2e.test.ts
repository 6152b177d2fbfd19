import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runSecondFactorAuditSuite } from './second-factor-audit.suite.js';

runSecondFactorAuditSuite('postgres', { skip: postgresServerSkipReason !== undefined });
