import { type AnalyticsQuery, type CountSource, noLogFilters, type QueryStatus } from '@svc/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshProfileId } from '../support/columnar-profiles.js';
import type { ColumnarStorage, QueryLogUnderTest } from '../support/every-columnar-store.js';
import { logRow } from '../support/query-log-rows.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Next year's changes of the clocks: always ahead, so no table's retention has dropped what is written.
const YEAR = new Date().getUTCFullYear() + 1;

/** The UTC midnight of the `nth` Sunday (1-based; -1 the last) of month `month0` in `YEAR`. */
function sunday(month0: number, nth: number): number {
  if (nth > 0) {
    const first = Date.UTC(YEAR, month0, 1);
    return first + (((7 - new Date(first).getUTCDay()) % 7) + (nth - 1) * 7) * DAY;
  }
  const last = Date.UTC(YEAR, month0 + 1, 0);
  return last - new Date(last).getUTCDay() * DAY;
}

/** Local midnights (UTC instants) of the days the clocks change, and of the days after them. */
const BERLIN_FALL = { midnight: sunday(9, -1) - 2 * HOUR, next: sunday(9, -1) + 23 * HOUR };
const BERLIN_SPRING = { midnight: sunday(2, -1) - HOUR, next: sunday(2, -1) + 22 * HOUR };
const NEW_YORK_FALL = { midnight: sunday(10, 1) + 4 * HOUR, next: sunday(10, 1) + 29 * HOUR };
const NEW_YORK_SPRING = { midnight: sunday(2, 2) + 5 * HOUR, next: sunday(2, 2) + 28 * HOUR };
/** A Kolkata midnight (UTC+05:30): 18:30 UTC the day before. */
const KOLKATA_MIDNIGHT = Date.UTC(YEAR, 5, 15) - 5.5 * HOUR;

type Bucket = { bucket: Date; status: QueryStatus; count: number };
const byTime = (buckets: Bucket[]) =>
  [...buckets]
    .sort((a, b) => a.bucket.getTime() - b.bucket.getTime())
    .map((row) => [row.bucket.toISOString(), row.count]);
const at = (ms: number) => new Date(ms).toISOString();

/**
 * Timeline buckets in a time zone (issue 38, ADR 0045), the same on every store: local midnights and hours,
 * days of 23 and 25 hours across daylight-saving changes in Europe/Berlin and America/New_York, and for zones
 * whose offset is not a whole number of hours, exact local buckets over rows but whole UTC hours over the
 * hourly totals. Without a zone the buckets stay aligned on the Unix epoch (the reader contract).
 */
export function runQueryLogLocalBucketsContract(storage: ColumnarStorage): void {
  let log: QueryLogUnderTest;
  const rowsProfile = freshProfileId();
  const totalsProfile = freshProfileId();
  const kolkataProfile = freshProfileId();
  const hourly = (from: number, to: number) =>
    Array.from({ length: (to - from) / HOUR }, (_, index) => from + index * HOUR);

  const timeline = (
    profileId: string,
    range: { from: number; to: number },
    timeZone: string,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Bucket[]> => {
    const query: AnalyticsQuery = {
      shape: 'timeline',
      profileId,
      range: { from: new Date(range.from), to: new Date(range.to) },
      filters: noLogFilters(),
      limit: 100,
      bucketSeconds,
      position: null,
      timeZone,
    };
    return log.reader.timeline(query, source, bucketSeconds);
  };

  beforeAll(async () => {
    log = await storage.open();
    // One row a UTC hour from an hour before Berlin's 25-hour day to an hour after it, and New York's 23-hour day.
    const berlin = hourly(BERLIN_FALL.midnight - HOUR, BERLIN_FALL.next + 2 * HOUR);
    const newYork = hourly(NEW_YORK_SPRING.midnight, NEW_YORK_SPRING.next);
    await log.writer.writeRows(
      [...berlin, ...newYork].map((ts, index) => logRow(rowsProfile, ts, index + 1)),
      30,
    );
    const totals = [...hourly(BERLIN_SPRING.midnight - HOUR, BERLIN_SPRING.next + HOUR)];
    totals.push(...hourly(NEW_YORK_FALL.midnight, NEW_YORK_FALL.next));
    await log.writer.writeHourlyTotals(
      totals.map((hour) => ({ profileId: totalsProfile, hour: new Date(hour), status: 'allowed', count: 1 })),
    );
    await log.writer.writeRows(
      [KOLKATA_MIDNIGHT - 60_000, KOLKATA_MIDNIGHT].map((ts, index) => logRow(kolkataProfile, ts, index + 1)),
      30,
    );
    await log.writer.writeHourlyTotals(
      [KOLKATA_MIDNIGHT - 1.5 * HOUR, KOLKATA_MIDNIGHT - 0.5 * HOUR, KOLKATA_MIDNIGHT + 0.5 * HOUR].map(
        (hour) => ({ profileId: kolkataProfile, hour: new Date(hour), status: 'allowed', count: 1 }),
      ),
    );
  }, 120_000);

  describe('rows', () => {
    const berlinRange = { from: BERLIN_FALL.midnight - HOUR, to: BERLIN_FALL.next + 2 * HOUR };

    it('daily buckets are local days: Berlin’s autumn day has 25 hours', async () => {
      expect(byTime(await timeline(rowsProfile, berlinRange, 'Europe/Berlin', 'rows', 86_400))).toEqual([
        [at(BERLIN_FALL.midnight - DAY), 1],
        [at(BERLIN_FALL.midnight), 25],
        [at(BERLIN_FALL.next), 2],
      ]);
    });

    it('hourly buckets are local hours: the repeated hour is two buckets', async () => {
      const buckets = byTime(await timeline(rowsProfile, berlinRange, 'Europe/Berlin', 'rows', 3_600));
      expect(buckets).toEqual(hourly(berlinRange.from, berlinRange.to).map((hour) => [at(hour), 1]));
    });

    it('buckets follow the wall clock from each local midnight: 00:00, 10:00 and 20:00 local', async () => {
      const buckets = byTime(await timeline(rowsProfile, berlinRange, 'Europe/Berlin', 'rows', 36_000));
      expect(buckets).toEqual([
        [at(BERLIN_FALL.midnight - DAY + 20 * HOUR), 1],
        // 00:00 to 10:00 local holds the repeated hour: 11 hours; 20:00 to midnight holds 4.
        [at(BERLIN_FALL.midnight), 11],
        [at(BERLIN_FALL.midnight + 11 * HOUR), 10],
        [at(BERLIN_FALL.midnight + 21 * HOUR), 4],
        [at(BERLIN_FALL.next), 2],
      ]);
    });

    it('daily buckets in New York: the spring day has 23 hours', async () => {
      const range = { from: NEW_YORK_SPRING.midnight, to: NEW_YORK_SPRING.next };
      expect(byTime(await timeline(rowsProfile, range, 'America/New_York', 'rows', 86_400))).toEqual([
        [at(NEW_YORK_SPRING.midnight), 23],
      ]);
    });

    it('a half-hour zone splits rows at its own midnight', async () => {
      const range = { from: KOLKATA_MIDNIGHT - HOUR, to: KOLKATA_MIDNIGHT + HOUR };
      expect(byTime(await timeline(kolkataProfile, range, 'Asia/Kolkata', 'rows', 86_400))).toEqual([
        [at(KOLKATA_MIDNIGHT - DAY), 1],
        [at(KOLKATA_MIDNIGHT), 1],
      ]);
    });
  });

  describe('hourly totals', () => {
    it('daily buckets: Berlin’s spring day has 23 hours', async () => {
      const range = { from: BERLIN_SPRING.midnight - HOUR, to: BERLIN_SPRING.next + HOUR };
      expect(byTime(await timeline(totalsProfile, range, 'Europe/Berlin', 'totals', 86_400))).toEqual([
        [at(BERLIN_SPRING.midnight - DAY), 1],
        [at(BERLIN_SPRING.midnight), 23],
        [at(BERLIN_SPRING.next), 1],
      ]);
    });

    it('daily buckets: New York’s autumn day has 25 hours', async () => {
      const range = { from: NEW_YORK_FALL.midnight, to: NEW_YORK_FALL.next };
      expect(byTime(await timeline(totalsProfile, range, 'America/New_York', 'totals', 86_400))).toEqual([
        [at(NEW_YORK_FALL.midnight), 25],
      ]);
    });

    it('a half-hour zone reports whole UTC hours: the hour across midnight goes to the new day', async () => {
      const range = { from: KOLKATA_MIDNIGHT - 2 * HOUR, to: KOLKATA_MIDNIGHT + 2 * HOUR };
      const daily = await timeline(kolkataProfile, range, 'Asia/Kolkata', 'totals', 86_400);
      expect(byTime(daily)).toEqual([
        [at(KOLKATA_MIDNIGHT - DAY - 0.5 * HOUR), 1],
        [at(KOLKATA_MIDNIGHT - 0.5 * HOUR), 2],
      ]);
      const hours = await timeline(kolkataProfile, range, 'Asia/Kolkata', 'totals', 3_600);
      expect(byTime(hours)).toEqual([
        [at(KOLKATA_MIDNIGHT - 1.5 * HOUR), 1],
        [at(KOLKATA_MIDNIGHT - 0.5 * HOUR), 1],
        [at(KOLKATA_MIDNIGHT + 0.5 * HOUR), 1],
      ]);
    });
  });
}
