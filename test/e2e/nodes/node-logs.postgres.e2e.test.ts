import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runNodeLogsSuite } from './node-logs.suite.js';

if (postgresServerSkipReason !== undefined)
  console.log(`skipping node logs on the PostgreSQL server: ${postgresServerSkipReason}`);
runNodeLogsSuite('postgres', { skip: postgresServerSkipReason !== undefined });
