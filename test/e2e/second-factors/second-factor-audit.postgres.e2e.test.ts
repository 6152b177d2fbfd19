import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runSecondFactorAuditSuite } from './second-factor-audit.suite.js';

runSecondFactorAuditSuite('postgres', { skip: postgresServerSkipReason !== undefined });
