import { runQueryLogSuite } from './query-log.suite.js';

const url = process.env.CLICKHOUSE_URL;
if (url === undefined) console.warn('query logs on a ClickHouse server skipped: CLICKHOUSE_URL is not set');

runQueryLogSuite('pglite', {
  skip: url === undefined,
  env: url === undefined ? {} : { CLICKHOUSE_URL: url },
  label: 'a ClickHouse server',
});
