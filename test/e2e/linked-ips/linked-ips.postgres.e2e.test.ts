import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runLinkedIpsSuite } from './linked-ips.suite.js';

runLinkedIpsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
