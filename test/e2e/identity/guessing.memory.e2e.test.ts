import { runGuessingSuite } from './guessing.suite.js';

runGuessingSuite('memory');
