import type { AnalyticsShape, QueryResult } from '@svc/domain';
import { type QueryCell, queryRecords } from './query-results.js';

/** A row of `counts_by_status`: queries of one status. */
export interface StatusCount {
  /** `allowed`, `blocked`, `rewritten` or `error`; a later status may appear (read it as text). */
  status: string;
  count: number;
}

/** A row of `top_domains` and `top_blocked`. */
export interface DomainCount {
  qname: string;
  count: number;
}

/** A row of `top_devices`: the device's display name when set, else the name the client sent (may be ''). */
export interface DeviceCount {
  device_id: string;
  device_name: string;
  count: number;
}

/** A row of `destinations`: an answer address of allowed queries. */
export interface DestinationCount {
  ip: string;
  count: number;
  /** ISO 3166-1 alpha-2 code, '' when unknown. */
  country: string;
  /** The network's owner, '' when unknown. */
  owner: string;
}

/** A row of `timeline`: one bucket's queries per status. */
export interface TimelineBucket {
  /** The bucket's start, RFC 3339. */
  ts: string;
  allowed: number;
  blocked: number;
  rewritten: number;
  error: number;
}

/** A row of `top_reasons`: what decided blocked and rewritten queries. */
export interface ReasonCount {
  /** `list`, `rule`, `rewrite`, `operator:<kind>` or `none`. */
  reason_code: string;
  /** The catalogue list when `reason_code` is `list`, else null. */
  list_id: number | null;
  /** The decision in words (the list's name, the rule). */
  reason: string;
  count: number;
}

/** A row of `top_owners`: a platform company or CDN operator. */
export interface OwnerCount {
  owner: string;
  count: number;
}

/** A row of `top_pops`: a point of presence's id, or `node` for the organisation's own node. */
export interface PopCount {
  pop: string;
  count: number;
}

/** The row type of each analytics shape (spec 4.6). */
export interface AnalyticsRecordOf {
  counts_by_status: StatusCount;
  top_domains: DomainCount;
  top_blocked: DomainCount;
  top_devices: DeviceCount;
  destinations: DestinationCount;
  timeline: TimelineBucket;
  top_reasons: ReasonCount;
  top_owners: OwnerCount;
  top_pops: PopCount;
}

/** An analytics answer with its rows as typed records, beside the columns and rows the API sent. */
export interface AnalyticsResult<S extends AnalyticsShape> extends QueryResult {
  records: AnalyticsRecordOf[S][];
}

const text = (cell: QueryCell | undefined): string =>
  cell === null || cell === undefined ? '' : Array.isArray(cell) ? cell.join(',') : String(cell);
const count = (cell: QueryCell | undefined): number => {
  const value = typeof cell === 'number' ? cell : Number(text(cell));
  return Number.isFinite(value) ? value : 0;
};
const optionalCount = (cell: QueryCell | undefined): number | null =>
  cell === null || cell === undefined || cell === '' ? null : count(cell);

type Row = Record<string, QueryCell>;

/** How each shape's cells become its record: missing or NULL cells read as '' or 0, never undefined. */
const RECORD_OF: { [S in AnalyticsShape]: (row: Row) => AnalyticsRecordOf[S] } = {
  counts_by_status: (row) => ({ status: text(row.status), count: count(row.count) }),
  top_domains: (row) => ({ qname: text(row.qname), count: count(row.count) }),
  top_blocked: (row) => ({ qname: text(row.qname), count: count(row.count) }),
  top_devices: (row) => ({
    device_id: text(row.device_id),
    device_name: text(row.device_name),
    count: count(row.count),
  }),
  destinations: (row) => ({
    ip: text(row.ip),
    count: count(row.count),
    country: text(row.country),
    owner: text(row.owner),
  }),
  timeline: (row) => ({
    ts: text(row.ts),
    allowed: count(row.allowed),
    blocked: count(row.blocked),
    rewritten: count(row.rewritten),
    error: count(row.error),
  }),
  top_reasons: (row) => ({
    reason_code: text(row.reason_code),
    list_id: optionalCount(row.list_id),
    reason: text(row.reason),
    count: count(row.count),
  }),
  top_owners: (row) => ({ owner: text(row.owner), count: count(row.count) }),
  top_pops: (row) => ({ pop: text(row.pop), count: count(row.count) }),
};

/**
 * The rows of an analytics answer of `shape` as typed records, read by column name (so columns appended within
 * /v1 change nothing, spec 9.2).
 */
export function analyticsRecords<S extends AnalyticsShape>(
  shape: S,
  result: Pick<QueryResult, 'columns' | 'rows'>,
): AnalyticsRecordOf[S][] {
  const recordOf = RECORD_OF[shape] as (row: Row) => AnalyticsRecordOf[S];
  return queryRecords(result).map(recordOf);
}
