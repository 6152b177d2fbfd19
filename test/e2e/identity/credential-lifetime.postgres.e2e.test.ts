import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runCredentialLifetimeSuite } from './credential-lifetime.suite.js';

runCredentialLifetimeSuite('postgres', { skip: postgresServerSkipReason !== undefined });
