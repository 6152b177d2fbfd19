import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runGuessingSuite } from './guessing.suite.js';

runGuessingSuite('postgres', { skip: postgresServerSkipReason !== undefined });
