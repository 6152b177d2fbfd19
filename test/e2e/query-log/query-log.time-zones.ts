import type { QueryLogRow } from '@svc/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemOf } from '../../support/http.js';
import { column, DAY, HOUR, type QueryLogFixture } from './query-log.fixture.js';
import { insertRows, insertTotals, totalsOf } from './query-log.seed.js';

// Next year's changes of the clocks: always ahead of the harness clock, so no retention has dropped them.
const YEAR = new Date().getUTCFullYear() + 1;

/** The UTC midnight of the last Sunday of October, and of the first Sunday of November, of `YEAR`. */
const lastSundayOfOctober = (() => {
  const last = Date.UTC(YEAR, 10, 0);
  return last - new Date(last).getUTCDay() * DAY;
})();
const firstSundayOfNovember = (() => {
  const first = Date.UTC(YEAR, 10, 1);
  return first + ((7 - new Date(first).getUTCDay()) % 7) * DAY;
})();
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Berlin's 25-hour day (local midnight 22:00 UTC the day before) and New York's (04:00 UTC). */
const BERLIN = { midnight: lastSundayOfOctober - 2 * HOUR, next: lastSundayOfOctober + 23 * HOUR };
const NEW_YORK = { midnight: firstSundayOfNovember + 4 * HOUR, next: firstSundayOfNovember + 29 * HOUR };

/**
 * `tz` on analytics and logs (issue 38, ADR 0045) through HTTP: timeline buckets on local midnights across
 * daylight-saving changes, from the hourly totals and from the rows alike, time cells in the zone's offset,
 * and an unknown zone as 422 validation_failed naming `tz`.
 */
export function queryLogTimeZones(fx: QueryLogFixture): void {
  let profileId: string;
  const hourly = (from: number, to: number) =>
    Array.from({ length: (to - from) / HOUR }, (_, index) => from + index * HOUR);

  describe('tz (issue 38)', () => {
    beforeAll(async () => {
      profileId = await fx.createProfile(fx.owner);
      const template = fx.rows[0] as QueryLogRow;
      const rows = [
        ...hourly(BERLIN.midnight - HOUR, BERLIN.next + HOUR),
        ...hourly(NEW_YORK.midnight, NEW_YORK.next),
      ].map((ts, index) => ({ ...template, profileId, ts: new Date(ts), rowId: String(index + 1) }));
      await insertRows(fx.writer, rows);
      await insertTotals(fx.writer, totalsOf(rows));
    });

    const timeline = (zone: string, range: { from: number; to: number }, extra = '') =>
      fx.ok(
        `/v1/profiles/${profileId}/analytics/timeline?bucket=86400&tz=${zone}&from=${range.from}&to=${range.to}${extra}`,
      );
    const totalOf = (cells: unknown[]) =>
      cells.slice(1).reduce<number>((sum, count) => sum + Number(count), 0);

    it('daily buckets from the hourly totals are local days: 25 hours on Berlin’s autumn day', async () => {
      const result = await timeline('Europe/Berlin', {
        from: BERLIN.midnight - HOUR,
        to: BERLIN.next + HOUR,
      });
      expect(result.rows.map((cells) => [cells[0], totalOf(cells)])).toEqual([
        [`${dateOf(BERLIN.midnight)}T00:00:00.000+02:00`, 1],
        [`${dateOf(lastSundayOfOctober)}T00:00:00.000+02:00`, 25],
        [`${dateOf(BERLIN.next + HOUR)}T00:00:00.000+01:00`, 1],
      ]);
    });

    it('daily buckets over the rows (a status filter) are local days: 25 hours in New York', async () => {
      const result = await timeline(
        'America/New_York',
        { from: NEW_YORK.midnight, to: NEW_YORK.next },
        `&status=${(fx.rows[0] as QueryLogRow).status}`,
      );
      expect(result.rows.map((cells) => [cells[0], totalOf(cells)])).toEqual([
        [`${dateOf(firstSundayOfNovember)}T00:00:00.000-04:00`, 25],
      ]);
    });

    it('without tz the same query is answered in UTC, epoch-aligned, as before', async () => {
      const result = await fx.ok(
        `/v1/profiles/${profileId}/analytics/timeline?bucket=86400&from=${BERLIN.midnight}&to=${BERLIN.next}`,
      );
      expect(result.rows.map((cells) => [cells[0], totalOf(cells)])).toEqual([
        [`${dateOf(BERLIN.midnight)}T00:00:00.000Z`, 2],
        [`${dateOf(lastSundayOfOctober)}T00:00:00.000Z`, 23],
      ]);
    });

    it('log rows keep their order and instants; their times carry the zone’s offset', async () => {
      const range = `from=${BERLIN.midnight + HOUR}&to=${BERLIN.midnight + 4 * HOUR}&mode=search`;
      const utc = await fx.ok(`/v1/profiles/${profileId}/logs?${range}`);
      const local = await fx.ok(`/v1/profiles/${profileId}/logs?${range}&tz=Europe/Berlin`);
      const day = dateOf(lastSundayOfOctober);
      // 01:00Z is 02:00 CET, the repeated hour's second pass; 00:00Z is 02:00 CEST.
      expect(column(local, 'ts')).toEqual([
        `${day}T02:00:00.000+01:00`,
        `${day}T02:00:00.000+02:00`,
        `${day}T01:00:00.000+02:00`,
      ]);
      expect(column(local, 'ts').map((ts) => Date.parse(String(ts)))).toEqual(
        column(utc, 'ts').map((ts) => Date.parse(String(ts))),
      );
    });

    it('an unknown zone is 422 validation_failed naming tz, on logs and analytics', async () => {
      for (const path of ['logs?tz=Mars/Olympus', 'analytics/timeline?tz=%2B01:00']) {
        const answer = await fx.get(`/v1/profiles/${profileId}/${path}`);
        expect(answer.status, path).toBe(422);
        expect(problemOf(answer)).toMatchObject({
          code: 'validation_failed',
          errors: [{ field: 'tz', message: expect.any(String) }],
        });
      }
    });
  });
}
