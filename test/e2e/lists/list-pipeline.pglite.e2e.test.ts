import { runListPipelineSuite } from './list-pipeline.suite.js';

runListPipelineSuite('pglite');
