import { type AnalyticsQuery, noLogFilters } from '@svc/domain';
import { beforeAll, expect, it } from 'vitest';
import { freshProfileId, recentEvenHour } from '../support/columnar-profiles.js';
import type { ColumnarStorage, QueryLogUnderTest } from '../support/every-columnar-store.js';

const HOUR = 3_600_000;

/**
 * The counts the EdgeLogWriter adds to, as the readers answer them (spec 4.6 rule 1, the devices' queries_24h):
 * hourly totals add up over writes and are read by whole hours, per-device counts add up and are read from the
 * hour enclosing `since`; a device without counts is missing from the answer.
 */
export function runQueryLogCountsContract(storage: ColumnarStorage): void {
  let log: QueryLogUnderTest;
  const profile = freshProfileId();
  const other = freshProfileId();
  const t0 = recentEvenHour();
  const totalsQuery = (from: number, to: number): AnalyticsQuery => ({
    shape: 'counts_by_status',
    profileId: profile,
    range: { from: new Date(from), to: new Date(to) },
    filters: noLogFilters(),
    limit: 100,
    bucketSeconds: 0,
    position: null,
  });

  beforeAll(async () => {
    log = await storage.open();
    await log.writer.writeHourlyTotals([
      { profileId: profile, hour: new Date(t0), status: 'allowed', count: 5 },
      { profileId: profile, hour: new Date(t0 + HOUR), status: 'blocked', count: 4 },
      { profileId: other, hour: new Date(t0), status: 'allowed', count: 100 },
    ]);
    await log.writer.writeHourlyTotals([
      { profileId: profile, hour: new Date(t0), status: 'allowed', count: 2 },
    ]);
    await log.writer.writeDeviceCounts([
      { profileId: profile, deviceId: 'laptop', hour: new Date(t0), queries: 10, blocked: 1 },
      { profileId: profile, deviceId: 'laptop', hour: new Date(t0 + HOUR), queries: 5, blocked: 2 },
      { profileId: profile, deviceId: 'phone', hour: new Date(t0 + HOUR), queries: 3, blocked: 0 },
      { profileId: other, deviceId: 'laptop', hour: new Date(t0 + HOUR), queries: 100, blocked: 100 },
    ]);
    await log.writer.writeDeviceCounts([
      { profileId: profile, deviceId: 'phone', hour: new Date(t0 + HOUR), queries: 1, blocked: 1 },
    ]);
  }, 120_000);

  it('hourly totals add up over writes, the profile’s own only', async () => {
    const counts = await log.reader.statusCounts(totalsQuery(t0, t0 + 2 * HOUR), 'totals');
    expect([...counts].sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { status: 'allowed', count: 7 },
      { status: 'blocked', count: 4 },
    ]);
  });

  it('hourly totals are read by the hours starting in the range', async () => {
    expect(await log.reader.statusCounts(totalsQuery(t0 + HOUR / 2, t0 + 2 * HOUR), 'totals')).toEqual([
      { status: 'blocked', count: 4 },
    ]);
    const timeline = await log.reader.timeline(totalsQuery(t0, t0 + 2 * HOUR), 'totals', 7200);
    expect([...timeline].sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { bucket: new Date(t0), status: 'allowed', count: 7 },
      { bucket: new Date(t0), status: 'blocked', count: 4 },
    ]);
  });

  it('device counts add up over writes, from the hour enclosing since', async () => {
    const counts = await log.deviceCounts.countsFor(
      profile,
      ['laptop', 'phone', 'tablet'],
      new Date(t0 + 60_000),
    );
    expect(counts).toEqual(
      new Map([
        ['laptop', { queries: 15, blocked: 3 }],
        ['phone', { queries: 4, blocked: 1 }],
      ]),
    );
    const later = await log.deviceCounts.countsFor(profile, ['laptop'], new Date(t0 + HOUR + 60_000));
    expect(later).toEqual(new Map([['laptop', { queries: 5, blocked: 2 }]]));
  });

  it('device counts of no devices are empty', async () => {
    expect(await log.deviceCounts.countsFor(profile, [], new Date(t0))).toEqual(new Map());
  });
}
