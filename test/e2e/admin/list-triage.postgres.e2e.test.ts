import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runListTriageSuite } from './list-triage.suite.js';

runListTriageSuite('postgres', { skip: postgresServerSkipReason !== undefined });
