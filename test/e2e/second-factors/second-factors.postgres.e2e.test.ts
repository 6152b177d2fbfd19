import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runSecondFactorSuite } from './second-factors.suite.js';

runSecondFactorSuite('postgres', { skip: postgresServerSkipReason !== undefined });
