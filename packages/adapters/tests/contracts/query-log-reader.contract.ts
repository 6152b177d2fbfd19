import {
  type AnalyticsQuery,
  type LogFilters,
  noLogFilters,
  type QueryLogRow,
  type RowQuery,
} from '@svc/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshProfileId, recentEvenHour } from '../support/columnar-profiles.js';
import type { ColumnarStorage, QueryLogUnderTest } from '../support/every-columnar-store.js';
import { logRow } from '../support/query-log-rows.js';

const HOUR = 3_600_000;
const byStatus = <T extends { status: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.status.localeCompare(b.status));

/**
 * The behaviour every QueryLogReader must have over what the EdgeLogWriter wrote (spec 2.11, 4.6): one
 * profile's rows in the range, newest first with row ids breaking ties, pages after (tail) or before (search) a
 * position, each filter as the spec defines it, and the analytics groupings with their orders and ties.
 */
export function runQueryLogReaderContract(storage: ColumnarStorage): void {
  let log: QueryLogUnderTest;
  const profile = freshProfileId();
  const t0 = recentEvenHour();
  const rows: QueryLogRow[] = [
    logRow(profile, t0, 1),
    {
      ...logRow(profile, t0 + 1000, 2),
      status: 'blocked',
      deviceId: 'phone',
      deviceName: 'phone',
      qname: 'ads.example',
      reasonListId: 3,
      reasonListName: 'ads',
      reasonRule: '||ads.example^',
      pop: 'lhr',
      answerIps: [],
    },
    {
      ...logRow(profile, t0 + 1000, 3),
      deviceName: 'laptop (old name)',
      qname: 'a.example',
      qtype: 28,
      answerIps: ['192.0.2.80', '192.0.2.80', '2001:db8::1'],
    },
    {
      ...logRow(profile, t0 + HOUR, 4),
      status: 'blocked',
      deviceId: '',
      deviceName: '',
      qname: 'ads.example',
      reasonListId: 3,
      reasonListName: 'ads',
      reasonRule: '||ads.example^',
      pop: '',
      clientIp: '2001:db8::7',
      answerIps: [],
    },
    { ...logRow(profile, t0 + 2 * HOUR, 5), deviceName: 'laptop', qname: 'b.example' },
  ];
  rows[0] = { ...(rows[0] as QueryLogRow), qname: 'a.example', deviceName: 'laptop (old name)' };

  type QueryOptions = Partial<Omit<RowQuery, 'filters'>> & { filters?: Partial<LogFilters> };
  const rowQuery = (options: QueryOptions = {}): RowQuery => ({
    shape: 'search',
    profileId: profile,
    range: { from: new Date(t0 - HOUR), to: new Date(t0 + 3 * HOUR) },
    limit: 100,
    bucketSeconds: 0,
    position: null,
    ...options,
    filters: { ...noLogFilters(), ...options.filters },
  });
  const analytics = (
    shape: AnalyticsQuery['shape'],
    options: { limit?: number; filters?: Partial<LogFilters> } = {},
  ): AnalyticsQuery => ({ ...rowQuery(options), shape });
  const ids = async (query: RowQuery, limit = 100) =>
    (await log.reader.rows(query, limit)).map((row) => row.rowId);

  beforeAll(async () => {
    log = await storage.open();
    await log.writer.writeRows(rows, 30);
    // Another profile's rows are never read.
    await log.writer.writeRows([logRow(freshProfileId(), t0, 6)], 30);
  }, 120_000);

  describe('rows', () => {
    it('reads what was written, every column as it was', async () => {
      const read = await log.reader.rows(rowQuery(), 100);
      expect(read.find((row) => row.rowId === '3')).toEqual(rows[2]);
    });

    it('answers the latest rows first, row ids breaking ties of one millisecond, up to the limit', async () => {
      expect(await ids(rowQuery())).toEqual(['5', '4', '3', '2', '1']);
      expect(await ids(rowQuery(), 2)).toEqual(['5', '4']);
    });

    it('keeps to the range: from included, to excluded', async () => {
      const range = { from: new Date(t0 + 1000), to: new Date(t0 + HOUR) };
      expect(await ids(rowQuery({ range }))).toEqual(['3', '2']);
    });

    it('a tail after a position answers the oldest rows after it, newest first', async () => {
      const query = rowQuery({ shape: 'tail', position: { ts: t0 + 1000, rowId: '2' } });
      expect(await ids(query, 2)).toEqual(['4', '3']);
    });

    it('a search after a position answers the rows before it', async () => {
      expect(await ids(rowQuery({ position: { ts: t0 + 1000, rowId: '3' } }))).toEqual(['2', '1']);
    });

    it('filters by device, status, list, query type and client address', async () => {
      expect(await ids(rowQuery({ filters: { devices: ['phone'] } }))).toEqual(['2']);
      expect(await ids(rowQuery({ filters: { statuses: ['blocked'] } }))).toEqual(['4', '2']);
      expect(await ids(rowQuery({ filters: { lists: [3] } }))).toEqual(['4', '2']);
      expect(await ids(rowQuery({ filters: { qtypes: [28] } }))).toEqual(['3']);
      // Compared as addresses: any spelling of an IPv6 address matches.
      expect(await ids(rowQuery({ filters: { clientIp: '2001:DB8:0::7' } }))).toEqual(['4']);
    });

    it('filters names by a case-insensitive substring, or exactly (lower-cased)', async () => {
      expect(await ids(rowQuery({ filters: { qname: 'ADS', qnameMatch: 'substring' } }))).toEqual(['4', '2']);
      expect(await ids(rowQuery({ filters: { qname: 'A.EXAMPLE', qnameMatch: 'exact' } }))).toEqual([
        '3',
        '1',
      ]);
    });
  });

  describe('analytics', () => {
    it('counts by status, filtered like rows', async () => {
      expect(byStatus(await log.reader.statusCounts(analytics('counts_by_status'), 'rows'))).toEqual([
        { status: 'allowed', count: 3 },
        { status: 'blocked', count: 2 },
      ]);
      const laptop = analytics('counts_by_status', { filters: { devices: ['laptop'] } });
      expect(await log.reader.statusCounts(laptop, 'rows')).toEqual([{ status: 'allowed', count: 3 }]);
    });

    it('counts by epoch-aligned bucket and status', async () => {
      const timeline = await log.reader.timeline(analytics('timeline'), 'rows', 3600);
      const key = (row: { bucket: Date; status: string }) => `${row.bucket.getTime() - t0} ${row.status}`;
      expect(new Map(timeline.map((row) => [key(row), row.count]))).toEqual(
        new Map([
          ['0 allowed', 2],
          ['0 blocked', 1],
          [`${HOUR} blocked`, 1],
          [`${2 * HOUR} allowed`, 1],
        ]),
      );
    });

    it('top names: count descending, name ascending, up to the limit', async () => {
      expect(await log.reader.topNames(analytics('top_domains', { limit: 2 }))).toEqual([
        { key: 'a.example', count: 2 },
        { key: 'ads.example', count: 2 },
      ]);
    });

    it('top devices: rows without a device left out, each with the latest name', async () => {
      expect(await log.reader.topDevices(analytics('top_devices'))).toEqual([
        { deviceId: 'laptop', deviceName: 'laptop', count: 3 },
        { deviceId: 'phone', deviceName: 'phone', count: 1 },
      ]);
    });

    it('top answer addresses: each address once per row', async () => {
      expect(await log.reader.topAnswerAddresses(analytics('destinations'))).toEqual([
        { key: '192.0.2.80', count: 3 },
        { key: '2001:db8::1', count: 1 },
      ]);
    });

    it('top PoPs: rows without a PoP left out', async () => {
      expect(await log.reader.topPops(analytics('top_pops'))).toEqual([
        { key: 'yyz', count: 3 },
        { key: 'lhr', count: 1 },
      ]);
    });

    it('every distinct decision with its count', async () => {
      expect(byStatus(await log.reader.decisions(analytics('top_reasons')))).toEqual([
        {
          status: 'allowed',
          reasonListId: null,
          reasonListName: '',
          reasonRule: '',
          operatorCode: '',
          count: 3,
        },
        {
          status: 'blocked',
          reasonListId: 3,
          reasonListName: 'ads',
          reasonRule: '||ads.example^',
          operatorCode: '',
          count: 2,
        },
      ]);
    });

    it('queries grouped by name and answer addresses', async () => {
      const groups = await log.reader.nameAnswers(analytics('top_owners'));
      const key = (group: { qname: string; answerIps: string[] }) =>
        JSON.stringify([group.qname, group.answerIps]);
      expect(new Map(groups.map((group) => [key(group), group.count]))).toEqual(
        new Map([
          [JSON.stringify(['a.example', ['192.0.2.80']]), 1],
          [JSON.stringify(['a.example', ['192.0.2.80', '192.0.2.80', '2001:db8::1']]), 1],
          [JSON.stringify(['ads.example', []]), 2],
          [JSON.stringify(['b.example', ['192.0.2.80']]), 1],
        ]),
      );
    });
  });
}
