import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runPasskeySuite } from './passkeys.suite.js';

runPasskeySuite('postgres', { skip: postgresServerSkipReason !== undefined });
