import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runProfilesSuite } from './profiles.suite.js';

runProfilesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
