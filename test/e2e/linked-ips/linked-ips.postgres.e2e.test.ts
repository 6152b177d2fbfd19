import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runLinkedIpsSuite } from './linked-ips.suite.js';

runLinkedIpsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
