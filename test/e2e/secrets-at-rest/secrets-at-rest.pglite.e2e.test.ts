import { runSecretsAtRestSuite } from './secrets-at-rest.suite.js';

runSecretsAtRestSuite('pglite');
