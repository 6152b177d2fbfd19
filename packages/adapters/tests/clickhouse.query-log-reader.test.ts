import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowQuery } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseColumnarStore, ClickHouseQueryLogReader, createColumnarStore } from '../src/index.js';

const serverUrl = process.env.CLICKHOUSE_URL;
/** A fresh profile id per run, so that a ClickHouse server's earlier rows do not count. */
const PROFILE = `c${Date.now().toString(36).slice(-5)}`;
const ROWS = 200_000;

let searches = 0;
const nextName = () => {
  searches += 1;
  return `no-such-name-${searches}`;
};
/**
 * A search matching nothing, so that it reads every row; a new name each time, since the store remembers
 * which granules a condition ruled out (query condition cache) and would not read them again.
 */
const query = (): RowQuery => ({
  shape: 'search',
  profileId: PROFILE,
  range: { from: new Date(0), to: new Date('2100-01-01T00:00:00Z') },
  filters: {
    devices: [],
    statuses: [],
    qname: nextName(),
    qnameMatch: 'substring',
    qtypes: [],
    lists: [],
    clientIp: null,
  },
  limit: 10,
  bucketSeconds: 0,
  position: null,
});

function readerSuite(name: string, open: () => Promise<ClickHouseColumnarStore>, skip = false) {
  describe.skipIf(skip)(`ClickHouse query-log reader ceilings: ${name} (spec 8)`, () => {
    let store: ClickHouseColumnarStore;
    beforeAll(async () => {
      store = await open();
      await store.migrate();
      // Generated on the store itself: enough rows to cross the small ceilings below.
      await store.client.command({
        query: `INSERT INTO query_log (profile_id, ts, row_id, qname, status, retention_days)
                SELECT {p:String}, toDateTime64('2026-11-20 00:00:00', 3, 'UTC') + toIntervalMillisecond(number),
                       number, concat('n', toString(number % 977), '.example'), 'allowed', 90
                FROM numbers({rows:UInt64})`,
        query_params: { p: PROFILE, rows: ROWS },
      });
    }, 120_000);
    afterAll(async () => store?.close());

    it('answers within the ceilings', async () => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, store.kind);
      expect(await reader.rows(query(), 10)).toEqual([]);
    });

    it('past max_rows_to_read is 422 query_too_expensive', async () => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, store.kind, {
        maxRowsToRead: 1_000,
        maxMemoryBytes: 2 * 1024 ** 3,
        maxExecutionSeconds: 10,
      });
      await expect(reader.rows(query(), 10)).rejects.toMatchObject({ code: 'query_too_expensive' });
    });

    it('past max_memory_usage is 422 query_too_expensive', async () => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, store.kind, {
        maxRowsToRead: 500_000_000,
        maxMemoryBytes: 1_000,
        maxExecutionSeconds: 10,
      });
      await expect(reader.rows(query(), 10)).rejects.toMatchObject({ code: 'query_too_expensive' });
    });

    it('past max_execution_time the store stops the query: 504 query_timeout', async () => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, store.kind, {
        maxRowsToRead: 500_000_000,
        maxMemoryBytes: 2 * 1024 ** 3,
        maxExecutionSeconds: 0.000_001,
      });
      await expect(reader.rows(query(), 10)).rejects.toMatchObject({ code: 'query_timeout' });
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-chdb-reader-'));
readerSuite('embedded chdb', async () => createColumnarStore({ dataDir }));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

readerSuite(
  'ClickHouse server',
  async () => createColumnarStore({ url: serverUrl, dataDir }),
  serverUrl === undefined,
);
