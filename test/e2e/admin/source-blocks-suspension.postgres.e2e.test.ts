import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runSourceBlocksAndSuspensionSuite } from './source-blocks-suspension.suite.js';

runSourceBlocksAndSuspensionSuite('postgres', { skip: postgresServerSkipReason !== undefined });
