import type { LogPosition } from './log-cursor.js';
import type { QueryRange } from './log-query.range.js';
import type { AnalyticsShape, LogMode, QueryShape } from './log-query.schemas.js';
import type { QueryStatus } from './query-log-row.js';

/** The row filters of a log or analytics query (spec 4.6); empty arrays and nulls filter nothing. */
export interface LogFilters {
  devices: string[];
  statuses: QueryStatus[];
  qname: string | null;
  /** `substring` for search, `exact` for every other shape. */
  qnameMatch: 'exact' | 'substring';
  qtypes: number[];
  lists: number[];
  clientIp: string | null;
  /**
   * `decided_by` (issue 38, ADR 0045): the exact value, or with a trailing `*` every value starting with what
   * precedes it (`schedule:*`). Null filters nothing.
   */
  decidedBy?: string | null;
}

/** Filters that keep every row: time is the query's only bound. */
export function noLogFilters(): LogFilters {
  return {
    devices: [],
    statuses: [],
    qname: null,
    qnameMatch: 'exact',
    qtypes: [],
    lists: [],
    clientIp: null,
  };
}

/** Does a row's `decided_by` meet the filter (exact, or a prefix before a trailing `*`)? */
export function decidedByMatches(filter: string | null | undefined, decidedBy: string | undefined): boolean {
  if (filter === null || filter === undefined) return true;
  const value = decidedBy ?? '';
  return filter.endsWith('*') ? value.startsWith(filter.slice(0, -1)) : value === filter;
}

/** A validated query of one profile, whatever answers it. */
export interface LogQuery {
  shape: QueryShape;
  profileId: string;
  range: QueryRange;
  filters: LogFilters;
  limit: number;
  /** Timeline bucket width in seconds. */
  bucketSeconds: number;
  /**
   * The cursor's position: a tail answers the rows after it (newer), a search the rows before it (older).
   * Null without a cursor.
   */
  position: LogPosition | null;
  /**
   * The IANA zone of `tz` (issue 38): timeline buckets align on its local midnights and hours, and time cells
   * carry its offset. Absent: UTC, buckets aligned on the Unix epoch as before.
   */
  timeZone?: string;
}

/** A log query (tail or search). */
export type RowQuery = LogQuery & { shape: LogMode };
/** An analytics query. */
export type AnalyticsQuery = LogQuery & { shape: AnalyticsShape };

/** True when the query filters by time only (spec 4.6 rule 1). */
export function filtersByTimeOnly(filters: LogFilters): boolean {
  return (
    filters.devices.length === 0 &&
    filters.statuses.length === 0 &&
    filters.qname === null &&
    filters.qtypes.length === 0 &&
    filters.lists.length === 0 &&
    filters.clientIp === null &&
    (filters.decidedBy ?? null) === null
  );
}

/** Canonical text of what a cursor is bound to: the filters and the explicit range, never the limit. */
export function queryFingerprint(
  filters: LogFilters,
  explicit: { from?: Date | undefined; to?: Date | undefined },
): string {
  const sorted = <T>(values: T[]) => [...values].sort();
  return JSON.stringify([
    sorted(filters.devices),
    sorted(filters.statuses),
    filters.qname,
    sorted(filters.qtypes),
    sorted(filters.lists),
    filters.clientIp,
    ...((filters.decidedBy ?? null) === null ? [] : [filters.decidedBy]),
    explicit.from?.getTime() ?? null,
    explicit.to?.getTime() ?? null,
  ]);
}
