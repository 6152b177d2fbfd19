import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runObservabilitySuite } from './observability.suite.js';

runObservabilitySuite('postgres', { skip: postgresServerSkipReason !== undefined });
