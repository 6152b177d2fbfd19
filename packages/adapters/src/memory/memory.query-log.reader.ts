import {
  type AnalyticsQuery,
  type CountSource,
  type DecisionFields,
  decidedByMatches,
  type LogQuery,
  localBucketStart,
  type NameCount,
  type QueryLogReader,
  type QueryLogRow,
  type QueryStatus,
  type RowQuery,
  totalsBucketStart,
} from '@svc/domain';
import ipaddr from 'ipaddr.js';
import type { MemoryQueryLog } from './memory.query-log.js';

/** An address as ClickHouse's toIPv6OrZero reads it: IPv4 mapped into IPv6, anything else the zero address. */
function asIpv6(text: string): string {
  if (!ipaddr.isValid(text)) return '::';
  const parsed = ipaddr.parse(text);
  return (
    parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4).toIPv4MappedAddress() : parsed
  ).toNormalizedString();
}

/** Does the row fall in the query's range and meet its filters, as the columnar store's WHERE reads them? */
function matches(query: LogQuery, row: QueryLogRow): boolean {
  const ts = row.ts.getTime();
  if (row.profileId !== query.profileId || ts >= query.range.to.getTime()) return false;
  if (query.range.from !== null && ts < query.range.from.getTime()) return false;
  const { filters } = query;
  if (filters.devices.length > 0 && !filters.devices.includes(row.deviceId)) return false;
  if (filters.statuses.length > 0 && !filters.statuses.includes(row.status)) return false;
  if (filters.qname !== null) {
    const found =
      filters.qnameMatch === 'substring'
        ? row.qname.toLowerCase().includes(filters.qname.toLowerCase())
        : row.qname === filters.qname.toLowerCase();
    if (!found) return false;
  }
  if (filters.qtypes.length > 0 && !filters.qtypes.includes(row.qtype)) return false;
  if (filters.lists.length > 0 && (row.reasonListId === null || !filters.lists.includes(row.reasonListId)))
    return false;
  if (filters.clientIp !== null && asIpv6(row.clientIp) !== asIpv6(filters.clientIp)) return false;
  return decidedByMatches(filters.decidedBy, row.decidedBy);
}

/** Where a row lies in the log's order: its time (Unix ms), then its id (a 63-bit integer). */
interface LogPlace {
  ts: number;
  rowId: string;
}

const placeOf = (row: QueryLogRow): LogPlace => ({ ts: row.ts.getTime(), rowId: row.rowId });

/** Negative when `a` is newer than `b`: newest first. */
function newerFirst(a: LogPlace, b: LogPlace): number {
  if (a.ts !== b.ts) return b.ts - a.ts;
  const [x, y] = [BigInt(a.rowId), BigInt(b.rowId)];
  return x === y ? 0 : x < y ? 1 : -1;
}

/** Count descending, key ascending (byte order, as the engine sorts strings). */
function byCount(a: NameCount, b: NameCount): number {
  if (a.count !== b.count) return b.count - a.count;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Counts of `keyOf` over `rows`, a key of undefined counted nowhere. */
function countBy<T>(rows: Iterable<T>, keysOf: (row: T) => readonly string[]): NameCount[] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const key of keysOf(row)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count }));
}

/**
 * {@link QueryLogReader} on a {@link MemoryQueryLog}, answering as the columnar store's reader does: the same
 * range and filters, orders and ties, whole-hour totals and epoch-aligned buckets. It has no ceilings: a
 * process's memory holds no more rows than it can scan.
 */
export class MemoryQueryLogReader implements QueryLogReader {
  constructor(private readonly log: MemoryQueryLog) {}

  async rows(query: RowQuery, limit: number): Promise<QueryLogRow[]> {
    let found = this.matching(query).sort((a, b) => newerFirst(placeOf(a), placeOf(b)));
    const position = query.position;
    if (position !== null) {
      // A tail wants the rows after the position (the oldest `limit` of them), a search the rows before it.
      const after = query.shape === 'tail';
      found = found.filter((row) => {
        const order = newerFirst(placeOf(row), position);
        return after ? order < 0 : order > 0;
      });
      if (query.shape === 'tail') found = found.slice(-limit);
    }
    return found.slice(0, limit).map((row) => structuredClone(row));
  }

  async statusCounts(
    query: AnalyticsQuery,
    source: CountSource,
  ): Promise<Array<{ status: QueryStatus; count: number }>> {
    const counts = new Map<QueryStatus, number>();
    for (const { status, count } of this.counted(query, source))
      counts.set(status, (counts.get(status) ?? 0) + count);
    return [...counts].map(([status, count]) => ({ status, count }));
  }

  async timeline(
    query: AnalyticsQuery,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: Date; status: QueryStatus; count: number }>> {
    const counts = new Map<string, { bucket: Date; status: QueryStatus; count: number }>();
    for (const { at, status, count } of this.counted(query, source)) {
      const bucket = new Date(bucketStart(query.timeZone, source, at.getTime(), bucketSeconds));
      const key = `${bucket.getTime()} ${status}`;
      const known = counts.get(key);
      if (known === undefined) counts.set(key, { bucket, status, count });
      else known.count += count;
    }
    return [...counts.values()];
  }

  async topNames(query: AnalyticsQuery): Promise<NameCount[]> {
    return countBy(this.matching(query), (row) => [row.qname])
      .sort(byCount)
      .slice(0, query.limit);
  }

  async topDevices(
    query: AnalyticsQuery,
  ): Promise<Array<{ deviceId: string; deviceName: string; count: number }>> {
    const devices = new Map<string, { deviceName: string; latest: number; count: number }>();
    for (const row of this.matching(query)) {
      if (row.deviceId === '') continue;
      const known = devices.get(row.deviceId) ?? { deviceName: row.deviceName, latest: -Infinity, count: 0 };
      known.count += 1;
      if (row.ts.getTime() > known.latest) {
        known.latest = row.ts.getTime();
        known.deviceName = row.deviceName;
      }
      devices.set(row.deviceId, known);
    }
    return [...devices]
      .map(([key, device]) => ({ key, ...device }))
      .sort(byCount)
      .slice(0, query.limit)
      .map(({ key, deviceName, count }) => ({ deviceId: key, deviceName, count }));
  }

  async topAnswerAddresses(query: AnalyticsQuery): Promise<NameCount[]> {
    return countBy(this.matching(query), (row) => [...new Set(row.answerIps)])
      .sort(byCount)
      .slice(0, query.limit);
  }

  async decisions(query: AnalyticsQuery): Promise<Array<DecisionFields & { count: number }>> {
    const decisions = new Map<string, DecisionFields & { count: number }>();
    for (const row of this.matching(query)) {
      const { status, reasonListId, reasonListName, reasonRule, operatorCode } = row;
      const key = JSON.stringify([status, reasonListId, reasonListName, reasonRule, operatorCode]);
      const known = decisions.get(key);
      if (known === undefined)
        decisions.set(key, { status, reasonListId, reasonListName, reasonRule, operatorCode, count: 1 });
      else known.count += 1;
    }
    return [...decisions.values()];
  }

  async nameAnswers(
    query: AnalyticsQuery,
  ): Promise<Array<{ qname: string; answerIps: string[]; count: number }>> {
    const groups = new Map<string, { qname: string; answerIps: string[]; count: number }>();
    for (const row of this.matching(query)) {
      const key = JSON.stringify([row.qname, row.answerIps]);
      const known = groups.get(key);
      if (known === undefined) groups.set(key, { qname: row.qname, answerIps: [...row.answerIps], count: 1 });
      else known.count += 1;
    }
    return [...groups.values()];
  }

  async topPops(query: AnalyticsQuery): Promise<NameCount[]> {
    return countBy(this.matching(query), (row) => (row.pop === '' ? [] : [row.pop]))
      .sort(byCount)
      .slice(0, query.limit);
  }

  private matching(query: LogQuery): QueryLogRow[] {
    return this.log.rows.filter((row) => matches(query, row));
  }

  /**
   * What a count of statuses adds up: each matching row once, or the hourly totals of the whole hours in the
   * range (from the hour enclosing `from`, up to the hour enclosing `to`).
   */
  private counted(
    query: AnalyticsQuery,
    source: CountSource,
  ): Array<{ at: Date; status: QueryStatus; count: number }> {
    if (source === 'rows')
      return this.matching(query).map((row) => ({ at: row.ts, status: row.status, count: 1 }));
    const to = Math.ceil(query.range.to.getTime() / 1000) * 1000;
    const from = query.range.from === null ? null : Math.floor(query.range.from.getTime() / 1000) * 1000;
    return [...this.log.totals]
      .filter(
        (total) =>
          total.profileId === query.profileId &&
          total.hour.getTime() < to &&
          (from === null || total.hour.getTime() >= from),
      )
      .map((total) => ({ at: total.hour, status: total.status, count: total.count }));
  }
}

/** A timeline bucket: epoch-aligned without a zone, else local (ADR 0045), hourly totals by whole UTC hours. */
function bucketStart(
  zone: string | undefined,
  source: CountSource,
  atMs: number,
  bucketSeconds: number,
): number {
  if (zone === undefined) {
    const seconds = Math.floor(atMs / 1000);
    return (seconds - (seconds % bucketSeconds)) * 1000;
  }
  return source === 'totals'
    ? totalsBucketStart(zone, atMs, bucketSeconds)
    : localBucketStart(zone, atMs, bucketSeconds);
}
