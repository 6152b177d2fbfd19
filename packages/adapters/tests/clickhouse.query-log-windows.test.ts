import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noLogFilters, type RowQuery } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseColumnarStore, ClickHouseQueryLogReader, createColumnarStore } from '../src/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The newest time asked for: rows are placed at whole hours before it. */
const NOW = Math.floor(Date.now() / HOUR) * HOUR;

/**
 * Profiles whose rows are spread so that a newest-first read finds its answer in each of its windows: the
 * first day, the width the first day's rows suggest, the week, and the whole range.
 */
const PROFILES: Record<string, Array<{ daysAgo: [number, number]; perHour: number }>> = {
  // 48 rows a day: the first day holds 48, the width they suggest (about 3 days) the rest.
  steady: [{ daysAgo: [0, 20], perHour: 2 }],
  // 24 rows in the last day, none for the next 6: the width they suggest (about 6 days) misses, the week answers.
  gap: [
    { daysAgo: [0, 1], perHour: 1 },
    { daysAgo: [7, 8], perHour: 5 },
  ],
  // A few rows in the last day and the rest after two weeks: only the whole range answers.
  old: [
    { daysAgo: [0, 1], perHour: 1 },
    { daysAgo: [14, 20], perHour: 1 },
  ],
  // Nothing in the last day, 40 rows three days back: the times read after the empty day bound them all.
  quiet: [{ daysAgo: [3, 4], perHour: 1 }],
  // Nothing in the last day, hundreds of rows from ten days back: the newest 100 of them.
  dormant: [{ daysAgo: [10, 30], perHour: 2 }],
};

const rowQuery = (profileId: string, statuses: RowQuery['filters']['statuses'] = []): RowQuery => ({
  shape: 'tail',
  profileId,
  range: { from: null, to: new Date(NOW) },
  filters: { ...noLogFilters(), statuses },
  limit: 100,
  bucketSeconds: 0,
  position: null,
});

describe('ClickHouse query-log reader: newest rows read in widening windows', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-ch-windows-'));
  let store: ClickHouseColumnarStore;
  /** Every row written, by profile: (ts, row id, status). */
  const written = new Map<string, Array<{ ts: number; rowId: number; status: string }>>();

  beforeAll(async () => {
    store = await createColumnarStore({ dataDir });
    await store.migrate();
    let rowId = 0;
    const values: Array<Record<string, unknown>> = [];
    for (const [profileId, spans] of Object.entries(PROFILES)) {
      const rows: Array<{ ts: number; rowId: number; status: string }> = [];
      for (const { daysAgo, perHour } of spans) {
        for (let at = NOW - daysAgo[0] * DAY - HOUR; at >= NOW - daysAgo[1] * DAY; at -= HOUR) {
          for (let n = 0; n < perHour; n += 1) {
            rowId += 1;
            // Two rows of an hour share their time: ties are broken by row id.
            rows.push({ ts: at, rowId, status: rowId % 3 === 0 ? 'blocked' : 'allowed' });
          }
        }
      }
      written.set(profileId, rows);
      for (const row of rows) {
        values.push({
          profile_id: profileId,
          ts: new Date(row.ts).toISOString().replace('T', ' ').replace('Z', ''),
          row_id: row.rowId,
          qname: 'example.com',
          status: row.status,
          retention_days: 90,
        });
      }
    }
    await store.client.insert({ table: 'query_log', values, format: 'JSONEachRow' });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The newest `limit` rows of a profile (with the statuses asked for), newest first, computed here. */
  const expected = (profileId: string, statuses: string[] = []) =>
    (written.get(profileId) ?? [])
      .filter((row) => statuses.length === 0 || statuses.includes(row.status))
      .sort((a, b) => b.ts - a.ts || b.rowId - a.rowId)
      .slice(0, 100)
      .map((row) => [row.ts, String(row.rowId)]);

  it.each(Object.keys(PROFILES))(
    'a tail of %s answers the newest 100 rows, none skipped',
    async (profileId) => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
      const rows = await reader.rows(rowQuery(profileId), 100);
      expect(rows.map((row) => [row.ts.getTime(), row.rowId])).toEqual(expected(profileId));
    },
  );

  it('a tail of a profile without rows answers none after one read of rows and one of times', async () => {
    const selects: string[] = [];
    const reader = new ClickHouseQueryLogReader(
      async () => store.reads,
      'embedded',
      undefined,
      (name, _attributes, work) => {
        selects.push(name);
        return work();
      },
    );
    expect(await reader.rows(rowQuery('nothing'), 100)).toEqual([]);
    expect(selects).toEqual(['clickhouse SELECT', 'clickhouse SELECT']);
  });

  it('a filtered tail of a dormant profile answers the newest matching rows', async () => {
    const reader = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
    const rows = await reader.rows(rowQuery('dormant', ['blocked']), 100);
    expect(rows.map((row) => [row.ts.getTime(), row.rowId])).toEqual(expected('dormant', ['blocked']));
  });

  it.each(['old', 'dormant'])(
    'a search of %s paged by its positions returns every row once, newest first',
    async (profileId) => {
      const reader = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
      const all = (written.get(profileId) ?? [])
        .sort((a, b) => b.ts - a.ts || b.rowId - a.rowId)
        .map((row) => [row.ts, String(row.rowId)]);
      const seen: unknown[] = [];
      let position: RowQuery['position'] = null;
      for (let page = 0; page < 20; page += 1) {
        const rows = await reader.rows({ ...rowQuery(profileId), shape: 'search', position }, 100);
        seen.push(...rows.map((row) => [row.ts.getTime(), row.rowId]));
        const last = rows.at(-1);
        if (rows.length < 100 || last === undefined) break;
        position = { ts: last.ts.getTime(), rowId: last.rowId };
      }
      expect(seen).toEqual(all);
    },
  );

  it('a filtered tail answers the newest matching rows', async () => {
    const reader = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
    const rows = await reader.rows(rowQuery('steady', ['blocked']), 100);
    expect(rows.map((row) => [row.ts.getTime(), row.rowId])).toEqual(expected('steady', ['blocked']));
  });
});
