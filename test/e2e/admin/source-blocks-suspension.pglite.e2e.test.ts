import { runSourceBlocksAndSuspensionSuite } from './source-blocks-suspension.suite.js';

runSourceBlocksAndSuspensionSuite('pglite');
