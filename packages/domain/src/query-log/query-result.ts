import { deriveColumns } from './derived-columns.js';
import type {
  AnalyticsShape,
  QueryCell,
  QueryColumn,
  QueryResult,
  QuerySource,
} from './log-query.schemas.js';
import type { QueryLogRow } from './query-log-row.js';

const column = (name: string, type: QueryColumn['type']): QueryColumn => ({ name, type });

/**
 * Columns of a log row (spec 2.11): the stored columns, the four derived ones, then `decided_by` (issue 38): the
 * policy that decided, '' when the reason code says it all.
 */
export const LOG_COLUMNS: readonly QueryColumn[] = Object.freeze([
  column('ts', 'time'),
  column('source', 'string'),
  column('pop', 'string'),
  column('node', 'string'),
  column('profile_id', 'string'),
  column('device_id', 'string'),
  column('device_name', 'string'),
  column('client_ip', 'string'),
  column('transport', 'string'),
  column('qname', 'string'),
  column('qtype', 'uint'),
  column('status', 'string'),
  column('reason_list_id', 'uint'),
  column('reason_rule', 'string'),
  column('rcode', 'uint'),
  column('dnssec_validated', 'bool'),
  column('cache_hit', 'bool'),
  column('latency_us', 'uint'),
  column('answer_ips', 'unknown'),
  column('reason', 'string'),
  column('reason_code', 'string'),
  column('ede_code', 'uint'),
  column('ede_text', 'string'),
  column('decided_by', 'string'),
]);

/** Columns of each analytics shape (spec 4.6; where the spec is silent, see the route descriptions). */
export const SHAPE_COLUMNS: Readonly<Record<AnalyticsShape, readonly QueryColumn[]>> = Object.freeze({
  counts_by_status: [column('status', 'string'), column('count', 'uint')],
  top_domains: [column('qname', 'string'), column('count', 'uint')],
  top_blocked: [column('qname', 'string'), column('count', 'uint')],
  top_devices: [column('device_id', 'string'), column('device_name', 'string'), column('count', 'uint')],
  destinations: [
    column('ip', 'string'),
    column('count', 'uint'),
    column('country', 'string'),
    column('owner', 'string'),
  ],
  timeline: [
    column('ts', 'time'),
    column('allowed', 'uint'),
    column('blocked', 'uint'),
    column('rewritten', 'uint'),
    column('error', 'uint'),
  ],
  top_reasons: [
    column('reason_code', 'string'),
    column('list_id', 'uint'),
    column('reason', 'string'),
    column('count', 'uint'),
  ],
  top_owners: [column('owner', 'string'), column('count', 'uint')],
  top_pops: [column('pop', 'string'), column('count', 'uint')],
});

/**
 * The cells of one log row in {@link LOG_COLUMNS} order. `device_name` is the device's display name when set
 * (`displayNames`, from the device registry), else the name the client sent.
 */
export function logRowCells(row: QueryLogRow, displayNames: ReadonlyMap<string, string>): QueryCell[] {
  const derived = deriveColumns(row);
  return [
    row.ts.toISOString(),
    row.node === null ? 'columnar' : 'node',
    row.pop,
    row.node,
    row.profileId,
    row.deviceId,
    (row.deviceId === '' ? undefined : displayNames.get(row.deviceId)) ?? row.deviceName,
    row.clientIp,
    row.transport,
    row.qname,
    row.qtype,
    row.status,
    row.reasonListId,
    row.reasonRule,
    row.rcode,
    row.dnssecValidated,
    row.cacheHit,
    row.latencyUs,
    [...row.answerIps],
    derived.reason,
    derived.reasonCode,
    derived.edeCode,
    derived.edeText,
    row.decidedBy ?? '',
  ];
}

/** A log result (tail or search) from rows in answer order, for the cloud store and relayed node rows alike. */
export function logRowsResult(options: {
  shape: 'tail' | 'search';
  source: QuerySource;
  node?: string;
  rows: readonly QueryLogRow[];
  displayNames: ReadonlyMap<string, string>;
  nextCursor: string | null;
}): QueryResult {
  return {
    shape: options.shape,
    source: options.source,
    ...(options.node === undefined ? {} : { node: options.node }),
    columns: [...LOG_COLUMNS],
    rows: options.rows.map((row) => logRowCells(row, options.displayNames)),
    next_cursor: options.nextCursor,
    partial: false,
  };
}

/** An empty result of `shape` (destination `none`): no rows, the shape's columns, complete. */
export function emptyResult(shape: QueryResult['shape'], source: QuerySource): QueryResult {
  return {
    shape,
    source,
    columns: [...(shape === 'tail' || shape === 'search' ? LOG_COLUMNS : SHAPE_COLUMNS[shape])],
    rows: [],
    next_cursor: null,
    partial: false,
  };
}
