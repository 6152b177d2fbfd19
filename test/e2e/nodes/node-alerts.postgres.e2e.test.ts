import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runNodeAlertSuite } from './node-alerts.suite.js';

runNodeAlertSuite('postgres', { skip: postgresServerSkipReason !== undefined });
