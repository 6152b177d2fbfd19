import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runListPipelineSuite } from './list-pipeline.suite.js';

runListPipelineSuite('postgres', { skip: postgresServerSkipReason !== undefined });
