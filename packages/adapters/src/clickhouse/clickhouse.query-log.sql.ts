import type { LogQuery, OperatorCode, QueryLogRow, QueryStatus, QueryTransport } from '@svc/domain';
import { decidedByOf } from './query-log-columns.js';

/**
 * The SQL of the query-log reads: fixed fragments chosen by which filters are set, every value a bound
 * parameter. Committed snapshots of what each shape runs are in `tests/__snapshots__/query-log-sql/`.
 */

/** Bound parameters of a statement. */
export type Parameters = Record<string, unknown>;

/** A WHERE clause of fixed fragments chosen by which filters are set; every value is a bound parameter. */
export interface Clause {
  prewhere: string;
  where: string;
  params: Parameters;
}

/** The profile, range and filters of a query over the per-query rows. */
export function rowClause(query: LogQuery): Clause {
  const params: Parameters = { profile: query.profileId, to_ms: query.range.to.getTime() };
  const prewhere = ['profile_id = {profile:String}', "ts < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')"];
  if (query.range.from !== null) {
    prewhere.push("ts >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')");
    params.from_ms = query.range.from.getTime();
  }
  const where: string[] = [];
  const { filters } = query;
  if (filters.devices.length > 0) {
    where.push('device_id IN {devices:Array(String)}');
    params.devices = filters.devices;
  }
  if (filters.statuses.length > 0) {
    where.push('status IN {statuses:Array(String)}');
    params.statuses = filters.statuses;
  }
  if (filters.qname !== null) {
    where.push(
      filters.qnameMatch === 'substring'
        ? 'positionCaseInsensitive(qname, {qname:String}) > 0'
        : 'qname = lower({qname:String})',
    );
    params.qname = filters.qname;
  }
  if (filters.qtypes.length > 0) {
    where.push('qtype IN {qtypes:Array(UInt16)}');
    params.qtypes = filters.qtypes;
  }
  if (filters.lists.length > 0) {
    where.push('reason_list_id IN {lists:Array(UInt16)}');
    params.lists = filters.lists;
  }
  if (filters.clientIp !== null) {
    // Compared as addresses, so that any spelling of an IPv6 address matches.
    where.push('toIPv6OrZero(client_ip) = toIPv6OrZero({client_ip:String})');
    params.client_ip = filters.clientIp;
  }
  const decidedBy = filters.decidedBy ?? null;
  if (decidedBy !== null) {
    // A trailing `*` asks for a prefix (ADR 0045); the value's pattern has no other wildcard to escape.
    where.push(
      decidedBy.endsWith('*')
        ? 'startsWith(decided_by, {decided_by:String})'
        : 'decided_by = {decided_by:String}',
    );
    params.decided_by = decidedBy.endsWith('*') ? decidedBy.slice(0, -1) : decidedBy;
  }
  return { prewhere: prewhere.join(' AND '), where: where.length === 0 ? '1' : where.join(' AND '), params };
}

/** The profile and whole-hour range of a query over the hourly totals. */
export function totalsClause(query: LogQuery): { where: string; params: Parameters } {
  const params: Parameters = { profile: query.profileId, to_s: Math.ceil(query.range.to.getTime() / 1000) };
  const where = ['profile_id = {profile:String}', "hour < toDateTime({to_s:Int64}, 'UTC')"];
  if (query.range.from !== null) {
    where.push("hour >= toDateTime({from_s:Int64}, 'UTC')");
    params.from_s = Math.floor(query.range.from.getTime() / 1000);
  }
  return { where: where.join(' AND '), params };
}

/**
 * The stored columns as they are: expressions cost the engine planning time on every query, a noticeable
 * share of a small read on chdb, so times and node ids are converted here instead. The
 * one alias differs from its column's name: an alias would replace its column in WHERE and ORDER BY.
 */
const ROW_COLUMNS = `profile_id, ts, toString(row_id) AS row_key, pop, node, device_id, device_name, client_ip,
  transport, qname, qtype, status, reason_list_id, reason_list_name, reason_rule, operator_code, rcode,
  dnssec_validated, cache_hit, latency_us, answer_ips, decided_by`;

export interface StoredRow {
  profile_id: string;
  /** DateTime64(3, 'UTC') as JSON writes it: `2026-11-23 04:00:00.123`. */
  ts: string;
  row_key: string;
  pop: string;
  node: string | null;
  device_id: string;
  device_name: string;
  client_ip: string;
  transport: string;
  qname: string;
  qtype: number;
  status: string;
  reason_list_id: number | null;
  reason_list_name: string;
  reason_rule: string;
  operator_code: string;
  rcode: number;
  dnssec_validated: boolean;
  cache_hit: boolean;
  latency_us: number;
  answer_ips: string[];
  decided_by: string;
}

export function rowOf(stored: StoredRow): QueryLogRow {
  return {
    profileId: stored.profile_id,
    ts: new Date(`${stored.ts.replace(' ', 'T')}Z`),
    rowId: stored.row_key,
    pop: stored.pop,
    node: stored.node,
    deviceId: stored.device_id,
    deviceName: stored.device_name,
    clientIp: stored.client_ip,
    transport: stored.transport as QueryTransport,
    qname: stored.qname,
    qtype: stored.qtype,
    status: stored.status as QueryStatus,
    reasonListId: stored.reason_list_id,
    reasonListName: stored.reason_list_name,
    reasonRule: stored.reason_rule,
    operatorCode: stored.operator_code as OperatorCode | '',
    rcode: stored.rcode,
    dnssecValidated: stored.dnssec_validated,
    cacheHit: stored.cache_hit,
    latencyUs: stored.latency_us,
    answerIps: stored.answer_ips,
    ...decidedByOf(stored.decided_by),
  };
}

/** A page of rows: `prewhere` bounds the scan, `where` filters it, `order` sorts it. */
export function rowsSelect(prewhere: string, where: string, order: string): string {
  return `SELECT ${ROW_COLUMNS} FROM query_log PREWHERE ${prewhere} WHERE ${where}
         ORDER BY ${order} LIMIT {limit:UInt32}`;
}

/** The count and oldest time of the newest `{limit}` matching rows older than `{before_ms}`. */
export function oldestOfNewestSelect(clause: Clause): string {
  return `SELECT count() AS rows, toUnixTimestamp64Milli(min(ts)) AS oldest_ms FROM (
         SELECT ts FROM query_log
         PREWHERE ${clause.prewhere} AND ts < fromUnixTimestamp64Milli({before_ms:Int64}, 'UTC')
         WHERE ${clause.where} ORDER BY ts DESC LIMIT {limit:UInt32})`;
}

/** Queries by status from the hourly totals. */
export function statusCountsOfTotals(where: string): string {
  return `SELECT status, sum(count) AS count FROM query_totals_hourly WHERE ${where}
             GROUP BY status`;
}

/** Queries by status from the rows. */
export function statusCountsOfRows(clause: Clause): string {
  return `SELECT status, count() AS count FROM query_log PREWHERE ${clause.prewhere}
                         WHERE ${clause.where} GROUP BY status`;
}

/**
 * Local buckets of `{tz}` (ADR 0045), as the domain's localBucketStart reads them: the instant `at_s` (Unix
 * seconds) on the wall clock, floored to `{bucket}` seconds from the local midnight, read back with the offset
 * in force at that boundary. A WITH list, so that each step is named once.
 */
function localBucketWith(seconds: string): string {
  return `WITH ${seconds} AS at_s,
     timeZoneOffset(toDateTime(at_s, {tz:String})) AS at_offset,
     at_s + at_offset AS wall_s,
     intDiv(wall_s, 86400) * 86400 + intDiv(wall_s % 86400, {bucket:UInt32}) * {bucket:UInt32} AS boundary_s,
     boundary_s - at_offset AS guess_s,
     timeZoneOffset(toDateTime(guess_s, {tz:String})) AS guess_offset,
     if(guess_offset = at_offset, guess_s, boundary_s - guess_offset) AS local_bucket
`;
}

/**
 * Queries by `{bucket}`-second bucket and status from the hourly totals: epoch-aligned without a zone; with one
 * (`{tz}`), the local bucket holding each hour's last second, moved back to its whole UTC hour (the domain's
 * totalsBucketStart).
 */
export function timelineOfTotals(where: string, zoned = false): string {
  const select = `SELECT ${zoned ? 'intDiv(local_bucket, 3600) * 3600' : 'intDiv(toUnixTimestamp(hour), {bucket:UInt32}) * {bucket:UInt32}'} AS bucket, status,
                sum(count) AS count
         FROM query_totals_hourly WHERE ${where} GROUP BY bucket, status`;
  return zoned ? `${localBucketWith('toUnixTimestamp(hour) + 3599')}${select}` : select;
}

/** Queries by `{bucket}`-second bucket and status from the rows. */
export function timelineOfRows(clause: Clause): string {
  return `SELECT intDiv(toUnixTimestamp(ts), {bucket:UInt32}) * {bucket:UInt32} AS bucket, status,
                            count() AS count
                     FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} GROUP BY bucket, status`;
}

/** Queries by local `{bucket}`-second bucket of `{tz}` and status from the rows (ADR 0045). */
export function zonedTimelineOfRows(clause: Clause): string {
  return `${localBucketWith('toUnixTimestamp(ts)')}SELECT local_bucket AS bucket, status, count() AS count
                     FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} GROUP BY bucket, status`;
}

/** The `{limit}` devices with most queries, each with its latest name. */
export function topDevicesSelect(clause: Clause): string {
  return `SELECT device_id AS key, argMax(device_name, ts) AS device_name, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} AND device_id != ''
                   GROUP BY key ORDER BY count DESC, key ASC LIMIT {limit:UInt32}`;
}

/** Queries by the decision that answered them. */
export function decisionsSelect(clause: Clause): string {
  return `SELECT status, reason_list_id, reason_list_name, reason_rule, operator_code, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where}
                   GROUP BY status, reason_list_id, reason_list_name, reason_rule, operator_code`;
}

/** Queries by name and answer. */
export function nameAnswersSelect(clause: Clause): string {
  return `SELECT qname, answer_ips, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} GROUP BY qname, answer_ips`;
}

/** The `{limit}` top values of `expression` (a fixed fragment) among rows meeting `condition`, by count. */
export function topBySelect(clause: Clause, expression: string, condition: string): string {
  return `SELECT ${expression} AS key, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} AND ${condition}
                   GROUP BY key ORDER BY count DESC, key ASC LIMIT {limit:UInt32}`;
}
