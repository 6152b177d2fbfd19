import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runIdentitySuite } from './identity.suite.js';

runIdentitySuite('postgres', { skip: postgresServerSkipReason !== undefined });
