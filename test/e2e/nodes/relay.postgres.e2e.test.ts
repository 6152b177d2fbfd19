import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runRelaySuite } from './relay.suite.js';

runRelaySuite('postgres', { skip: postgresServerSkipReason !== undefined });
