import { zoneOffsetAt } from '../schedules/zone-offsets.js';
import type { QueryResult } from './log-query.schemas.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The start of the `bucketSeconds`-wide timeline bucket holding `atMs` in the IANA `zone` (issue 38, ADR 0045):
 * buckets follow the local wall clock, starting at each local midnight and every `bucketSeconds` of wall time
 * after it (the last of a day is shorter when the width does not divide the day). Hourly buckets are thus the
 * local hours, 23 or 25 of them on the days the clocks change (the repeated hour is two buckets), and daily
 * buckets the local days. A boundary is read with the offset in force at it, not at `atMs`; one that falls in a
 * gap of the wall clock (Berlin's 02:00 on the spring day, for 2-hour buckets) is read with the offset before
 * the gap, as ClickHouse's timeZoneOffset gives the same answer on the columnar store.
 */
export function localBucketStart(zone: string, atMs: number, bucketSeconds: number): number {
  const offset = zoneOffsetAt(zone, atMs).offset;
  const wall = atMs + offset;
  const wallDay = Math.floor(wall / DAY_MS) * DAY_MS;
  const width = bucketSeconds * 1000;
  const boundary = wallDay + Math.floor((wall - wallDay) / width) * width;
  const guess = boundary - offset;
  const offsetAtGuess = zoneOffsetAt(zone, guess).offset;
  return offsetAtGuess === offset ? guess : boundary - offsetAtGuess;
}

/**
 * The bucket of one hourly total (the hour starting at `hourMs`, UTC) in `zone`. The totals are kept per UTC
 * hour, so a zone whose offset is not a whole number of hours (Asia/Kolkata, Asia/Kathmandu, Lord Howe's
 * half-hour daylight saving) cannot be split at its local boundaries: each bucket reports the whole UTC hours,
 * as spec 4.6 rule 1 does for sub-hour ranges. Every boundary moves back to the start of the UTC hour it falls
 * in, and an hour goes to the bucket holding its last second, so each hour is counted once and the bucket is
 * labelled with the instant its first hour starts. For whole-hour zones this is exactly the local bucket.
 */
export function totalsBucketStart(zone: string, hourMs: number, bucketSeconds: number): number {
  const start = localBucketStart(zone, hourMs + HOUR_MS - 1000, bucketSeconds);
  return Math.floor(start / HOUR_MS) * HOUR_MS;
}

/** An instant as RFC 3339 with the offset of `zone` at it (`2026-03-29T03:00:00.000+02:00`): the same instant. */
function zonedInstantText(atMs: number, zone: string): string {
  const offset = zoneOffsetAt(zone, atMs).offset;
  const local = new Date(atMs + offset).toISOString().slice(0, 23);
  if (offset === 0) return `${local}Z`;
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * The result with its time cells (columns of type `time`, whoever answered) written with the offset of `zone`
 * at each instant; unchanged without a zone, so a request without `tz` answers in UTC as before.
 */
export function timesInZone(result: QueryResult, zone: string | undefined): QueryResult {
  if (zone === undefined) return result;
  const times = result.columns.flatMap((column, index) => (column.type === 'time' ? [index] : []));
  if (times.length === 0) return result;
  const rows = result.rows.map((cells) => {
    const zoned = [...cells];
    for (const index of times) {
      const cell = zoned[index];
      const at = typeof cell === 'string' ? Date.parse(cell) : Number.NaN;
      if (!Number.isNaN(at)) zoned[index] = zonedInstantText(at, zone);
    }
    return zoned;
  });
  return { ...result, rows };
}
