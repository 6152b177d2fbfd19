import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runListPipelineSuite } from './list-pipeline.suite.js';

runListPipelineSuite('postgres', { skip: postgresServerSkipReason !== undefined });
