import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runNodeAlertSuite } from './node-alerts.suite.js';

runNodeAlertSuite('postgres', { skip: postgresServerSkipReason !== undefined });
