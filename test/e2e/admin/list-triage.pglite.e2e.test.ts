import { runListTriageSuite } from './list-triage.suite.js';

runListTriageSuite('pglite');
