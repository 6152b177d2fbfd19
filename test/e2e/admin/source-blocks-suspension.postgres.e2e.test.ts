import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runSourceBlocksAndSuspensionSuite } from './source-blocks-suspension.suite.js';

runSourceBlocksAndSuspensionSuite('postgres', { skip: postgresServerSkipReason !== undefined });
