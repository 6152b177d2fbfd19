import { noLogFilters, type RowQuery } from '@svc/domain';
import { beforeAll, expect, it } from 'vitest';
import { freshProfileId, recentEvenHour } from '../support/columnar-profiles.js';
import type { ColumnarStorage, QueryLogUnderTest } from '../support/every-columnar-store.js';
import { logRow } from '../support/query-log-rows.js';

/**
 * `decided_by` (issue 38, ADR 0045) on every store: written and read back as it was (absent when empty, as rows
 * of older writers read), and filtered exactly, or by prefix with a trailing `*`.
 */
export function runQueryLogDecidedByContract(storage: ColumnarStorage): void {
  let log: QueryLogUnderTest;
  const profile = freshProfileId();
  const t0 = recentEvenHour();
  const rows = [
    { ...logRow(profile, t0, 1), decidedBy: 'paused' },
    { ...logRow(profile, t0 + 1, 2), status: 'blocked' as const, decidedBy: 'schedule:bedtime' },
    { ...logRow(profile, t0 + 2, 3), status: 'blocked' as const, decidedBy: 'schedule:school' },
    { ...logRow(profile, t0 + 3, 4), decidedBy: 'device:tablet' },
    logRow(profile, t0 + 4, 5),
  ];
  const query = (decidedBy: string | null): RowQuery => ({
    shape: 'search',
    profileId: profile,
    range: { from: new Date(t0), to: new Date(t0 + 1000) },
    filters: { ...noLogFilters(), decidedBy },
    limit: 100,
    bucketSeconds: 0,
    position: null,
  });
  const ids = async (decidedBy: string | null) =>
    (await log.reader.rows(query(decidedBy), 100)).map((row) => row.rowId);

  beforeAll(async () => {
    log = await storage.open();
    await log.writer.writeRows(rows, 30);
  }, 120_000);

  it('reads decided_by as written; an empty one is absent', async () => {
    expect(await log.reader.rows(query(null), 100)).toEqual([...rows].reverse());
  });

  it('filters decided_by exactly, or by the prefix before a trailing *', async () => {
    expect(await ids('paused')).toEqual(['1']);
    expect(await ids('schedule:*')).toEqual(['3', '2']);
    expect(await ids('schedule')).toEqual([]);
    expect(await ids('device:tablet')).toEqual(['4']);
  });
}
