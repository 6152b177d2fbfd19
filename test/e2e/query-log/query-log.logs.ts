import type { QueryLogRow } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../support/http.js';
import { expectedReason, newestFirst, within } from './query-log.expected.js';
import { column, LOG_COLUMNS, type QueryLogFixture } from './query-log.fixture.js';
import { insertRows, insertTotals, totalsOf } from './query-log.seed.js';

/** The log rows themselves: GET /v1/profiles/{id}/logs and its shapes (spec 2.11, 4.6). */
export function queryLogRows(fx: QueryLogFixture): void {
  const { get, ok, recent } = fx;
  it('the simulated data has what the assertions need', () => {
    expect(fx.rows.length).toBeGreaterThan(2_000);
    expect(new Set(fx.rows.map((row) => row.status))).toEqual(
      new Set(['allowed', 'blocked', 'rewritten', 'error']),
    );
    expect(fx.rows.some((row) => row.reasonListId !== null)).toBe(true);
  });

  describe('GET /v1/profiles/{id}/logs', () => {
    it('tail answers the latest rows newest first with the columns of spec 2.11, typed, partial false', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/logs`);
      expect(result.shape).toBe('tail');
      expect(result.source).toBe('columnar');
      expect(result.partial).toBe(false);
      expect(result.columns.map((entry) => [entry.name, entry.type])).toEqual(LOG_COLUMNS);
      const expected = newestFirst(fx.rows).slice(0, 100);
      expect(column(result, 'ts')).toEqual(expected.map((row) => row.ts.toISOString()));
      expect(result.rows).toHaveLength(100);
      const first = expected[0] as QueryLogRow;
      const cells = Object.fromEntries(
        result.columns.map((entry, index) => [entry.name, result.rows[0]?.[index]]),
      );
      expect(cells).toMatchObject({
        source: 'columnar',
        pop: first.pop,
        node: null,
        profile_id: fx.profileId,
        device_id: first.deviceId,
        client_ip: first.clientIp,
        transport: first.transport,
        qname: first.qname,
        qtype: first.qtype,
        status: first.status,
        reason_list_id: first.reasonListId,
        reason_rule: first.reasonRule,
        rcode: first.rcode,
        dnssec_validated: first.dnssecValidated,
        cache_hit: first.cacheHit,
        latency_us: first.latencyUs,
        answer_ips: first.answerIps,
      });
    });

    it('computes reason, reason_code, ede_code and ede_text for every row (spec 2.11)', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/logs?mode=search&limit=1000&${recent()}`);
      const byCode = new Map<string, number>();
      const expected = newestFirst(fx.rows).slice(0, 1000);
      const reasons = ['reason', 'reason_code', 'ede_code', 'ede_text'].map((name) => column(result, name));
      expected.forEach((row, index) => {
        expect(reasons.map((values) => values[index])).toEqual(expectedReason(row));
        const code = expectedReason(row)[1];
        byCode.set(code, (byCode.get(code) ?? 0) + 1);
      });
      expect(byCode.get('list')).toBeGreaterThan(0);
      expect(byCode.get('none')).toBeGreaterThan(0);
    });

    it('tail with its cursor answers only rows that arrived after it, without gaps or repeats (4.1.4)', async () => {
      const first = await ok(`/v1/profiles/${fx.profileId}/logs?limit=5`);
      expect(first.next_cursor).toEqual(expect.any(String));
      const quiet = await ok(`/v1/profiles/${fx.profileId}/logs?limit=5&cursor=${first.next_cursor}`);
      expect(quiet.rows).toEqual([]);
      expect(quiet.next_cursor).toEqual(expect.any(String));
      const newest = newestFirst(fx.rows)[0] as QueryLogRow;
      const arrived: QueryLogRow[] = [1, 2, 3].map((step) => ({
        ...newest,
        ts: new Date(newest.ts.getTime() + step),
        rowId: String(9_000_000_000_000 + step),
        qname: `arrived-${step}.example`,
      }));
      await insertRows(fx.writer, arrived);
      await insertTotals(fx.writer, totalsOf(arrived));
      const next = await ok(`/v1/profiles/${fx.profileId}/logs?limit=2&cursor=${quiet.next_cursor}`);
      expect(column(next, 'qname')).toEqual(['arrived-2.example', 'arrived-1.example']);
      const last = await ok(`/v1/profiles/${fx.profileId}/logs?limit=2&cursor=${next.next_cursor}`);
      expect(column(last, 'qname')).toEqual(['arrived-3.example']);
      const none = await ok(`/v1/profiles/${fx.profileId}/logs?limit=2&cursor=${last.next_cursor}`);
      expect(none.rows).toEqual([]);
      fx.rows.push(...arrived);
    });

    it('search pages older with next_cursor through every matching row exactly once, null at the end', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query = `mode=search&status=blocked&limit=37&${recent()}${cursor === null ? '' : `&cursor=${cursor}`}`;
        const page = await ok(`/v1/profiles/${fx.profileId}/logs?${query}`);
        seen.push(...page.rows.map((row) => `${row[0]}|${row[9]}|${row[5]}`));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 100);
      const expected = newestFirst(fx.rows.filter((row) => row.status === 'blocked')).map(
        (row) => `${row.ts.toISOString()}|${row.qname}|${row.deviceId}`,
      );
      expect(seen).toEqual(expected);
      // The last page says it is the last (null cursor) even when it is full: no empty page after it.
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 37)));
    });

    it('a modified, foreign or over-long cursor is 400 invalid_cursor', async () => {
      const page = await ok(`/v1/profiles/${fx.profileId}/logs?mode=search&limit=3&${recent()}`);
      const cursor = page.next_cursor as string;
      const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      for (const query of [
        `mode=search&limit=3&${recent()}&cursor=${flipped}`,
        `mode=search&limit=3&${recent()}&status=error&cursor=${cursor}`,
        `mode=tail&limit=3&${recent()}&cursor=${cursor}`,
        `mode=search&limit=3&${recent()}&cursor=${'a'.repeat(513)}`,
      ]) {
        const answer = await get(`/v1/profiles/${fx.profileId}/logs?${query}`);
        expect(answer.status, query).toBe(400);
        expect(problemOf(answer).code).toBe('invalid_cursor');
      }
      const other = await ok(`/v1/profiles/${fx.noneId}/logs?mode=search&limit=3&${recent()}`);
      expect(other.next_cursor).toBeNull();
    });

    it('filters by device, status, qtype, list and client_ip, repeated, and qname exact for tail', async () => {
      const [device] = fx.devices;
      const sample = fx.rows.find((row) => row.reasonListId !== null) as QueryLogRow;
      const cases: [string, (row: QueryLogRow) => boolean][] = [
        [`device=${device?.id}`, (row) => row.deviceId === device?.id],
        ['status=blocked&status=error', (row) => row.status === 'blocked' || row.status === 'error'],
        ['qtype=28&qtype=65', (row) => row.qtype === 28 || row.qtype === 65],
        [`list=${sample.reasonListId}`, (row) => row.reasonListId === sample.reasonListId],
        [`client_ip=${sample.clientIp}`, (row) => row.clientIp === sample.clientIp],
        [`qname=${sample.qname}`, (row) => row.qname === sample.qname],
      ];
      for (const [query, keep] of cases) {
        const result = await ok(`/v1/profiles/${fx.profileId}/logs?limit=1000&${query}`);
        const expected = newestFirst(fx.rows.filter(keep)).slice(0, 1000);
        expect(result.rows.length, query).toBe(expected.length);
        expect(column(result, 'ts'), query).toEqual(expected.map((row) => row.ts.toISOString()));
      }
    });

    it('search matches qname as a substring, tail as the exact name', async () => {
      const part = 'google';
      const search = await ok(
        `/v1/profiles/${fx.profileId}/logs?mode=search&limit=1000&qname=${part}&${recent()}`,
      );
      const expected = fx.rows.filter((row) => row.qname.includes(part));
      expect(expected.length).toBeGreaterThan(0);
      expect(search.rows.length).toBe(Math.min(1000, expected.length));
      const tail = await ok(`/v1/profiles/${fx.profileId}/logs?limit=1000&qname=${part}`);
      expect(tail.rows).toEqual([]);
    });

    it('from and to take RFC 3339 or Unix milliseconds: from inclusive, to exclusive', async () => {
      const sorted = newestFirst(fx.rows);
      const to = (sorted[10] as QueryLogRow).ts;
      const from = (sorted[40] as QueryLogRow).ts;
      const expected = newestFirst(within(fx.rows, from, to));
      const byMs = await ok(
        `/v1/profiles/${fx.profileId}/logs?mode=search&from=${from.getTime()}&to=${to.getTime()}`,
      );
      const byText = await ok(
        `/v1/profiles/${fx.profileId}/logs?mode=search&from=${from.toISOString()}&to=${encodeURIComponent(to.toISOString().replace('Z', '+00:00'))}`,
      );
      expect(column(byMs, 'ts')).toEqual(expected.map((row) => row.ts.toISOString()));
      expect(column(byText, 'ts')).toEqual(column(byMs, 'ts'));
    });
  });
}
