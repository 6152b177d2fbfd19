import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runListTriageSuite } from './list-triage.suite.js';

runListTriageSuite('postgres', { skip: postgresServerSkipReason !== undefined });
