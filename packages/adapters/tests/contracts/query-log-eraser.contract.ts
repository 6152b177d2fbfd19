import { type AnalyticsQuery, noLogFilters } from '@svc/domain';
import { beforeAll, expect, it } from 'vitest';
import { freshProfileId, recentEvenHour } from '../support/columnar-profiles.js';
import type { ColumnarStorage, QueryLogUnderTest } from '../support/every-columnar-store.js';
import { logRow } from '../support/query-log-rows.js';

const HOUR = 3_600_000;

/**
 * The behaviour every QueryLogEraser must have (account erasure, spec 3): the erased profiles' rows, hourly
 * totals and device counts are gone at once, other profiles' stay, and erasing again (or nothing) does nothing.
 */
export function runQueryLogEraserContract(storage: ColumnarStorage): void {
  let log: QueryLogUnderTest;
  const t0 = recentEvenHour();
  const query = (profileId: string): AnalyticsQuery => ({
    shape: 'counts_by_status',
    profileId,
    range: { from: new Date(t0 - HOUR), to: new Date(t0 + HOUR) },
    filters: noLogFilters(),
    limit: 100,
    bucketSeconds: 0,
    position: null,
  });
  const kept = async (profileId: string) => ({
    rows: (await log.reader.rows({ ...query(profileId), shape: 'search' }, 10)).length,
    totals: await log.reader.statusCounts(query(profileId), 'totals'),
    devices: await log.deviceCounts.countsFor(profileId, ['laptop'], new Date(t0)),
  });
  const seed = async (profileId: string) => {
    await log.writer.writeRows([logRow(profileId, t0, 1), logRow(profileId, t0 + 1, 2)], 30);
    await log.writer.writeHourlyTotals([{ profileId, hour: new Date(t0), status: 'allowed', count: 2 }]);
    await log.writer.writeDeviceCounts([
      { profileId, deviceId: 'laptop', hour: new Date(t0), queries: 2, blocked: 0 },
    ]);
  };
  const everything = {
    rows: 2,
    totals: [{ status: 'allowed', count: 2 }],
    devices: new Map([['laptop', { queries: 2, blocked: 0 }]]),
  };
  const nothing = { rows: 0, totals: [], devices: new Map() };

  beforeAll(async () => {
    log = await storage.open();
  }, 120_000);

  it('erases the profiles’ rows, totals and device counts, and only theirs', async () => {
    const [erased, alsoErased, other] = [freshProfileId(), freshProfileId(), freshProfileId()];
    for (const profileId of [erased, alsoErased, other]) await seed(profileId);
    expect(await kept(erased)).toEqual(everything);
    await log.eraser.eraseProfiles([erased, alsoErased]);
    expect(await kept(erased)).toEqual(nothing);
    expect(await kept(alsoErased)).toEqual(nothing);
    expect(await kept(other)).toEqual(everything);
  });

  it('erasing again, or profiles with nothing stored, or none, does nothing', async () => {
    const [erased, other] = [freshProfileId(), freshProfileId()];
    await seed(other);
    await log.eraser.eraseProfiles([erased]);
    await log.eraser.eraseProfiles([erased, freshProfileId()]);
    await log.eraser.eraseProfiles([]);
    expect(await kept(erased)).toEqual(nothing);
    expect(await kept(other)).toEqual(everything);
  });
}
