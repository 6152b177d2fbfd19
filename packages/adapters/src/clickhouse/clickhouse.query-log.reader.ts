import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import {
  type AnalyticsQuery,
  type CountSource,
  type DecisionFields,
  DomainError,
  type LogQuery,
  type NameCount,
  type OperatorCode,
  type QueryLogReader,
  type QueryLogRow,
  type QueryStatus,
  type QueryTransport,
  type RowQuery,
} from '@svc/domain';
import { type StorageCallTracer, untracedStorageCalls } from '../tracing/storage-call-tracer.js';
import type { ClickHouseReadPool } from './clickhouse.read-pool.js';

/** Ceilings of one cloud query (spec 8) and how long it may run. */
export interface QueryLogReaderLimits {
  maxRowsToRead: number;
  maxMemoryBytes: number;
  /** Past this the store stops the query itself (504 query_timeout). */
  maxExecutionSeconds: number;
}

export const CLOUD_QUERY_LIMITS: Readonly<QueryLogReaderLimits> = Object.freeze({
  maxRowsToRead: 500_000_000,
  maxMemoryBytes: 2 * 1024 ** 3,
  maxExecutionSeconds: 10,
});

/** Extra time the client waits past max_execution_time before it abandons the answer and kills the query. */
const ABANDON_GRACE_MS = 2_000;

/** ClickHouse error codes (and names, which embedded chdb errors carry in their text) past the ceilings. */
const TOO_EXPENSIVE = new Set(['158', '241', '307', '396']);
const TOO_EXPENSIVE_NAMES = /\b(TOO_MANY_ROWS|TOO_MANY_BYTES|MEMORY_LIMIT_EXCEEDED|TOO_MANY_ROWS_OR_BYTES)\b/;
const TIMED_OUT = new Set(['159', '160']);
const TIMED_OUT_NAMES = /\b(TIMEOUT_EXCEEDED|TOO_SLOW)\b/;

type Parameters = Record<string, unknown>;

/** A WHERE clause of fixed fragments chosen by which filters are set; every value is a bound parameter. */
interface Clause {
  prewhere: string;
  where: string;
  params: Parameters;
}

/** The profile, range and filters of a query over the per-query rows. */
function rowClause(query: LogQuery): Clause {
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
  return { prewhere: prewhere.join(' AND '), where: where.length === 0 ? '1' : where.join(' AND '), params };
}

/** The profile and whole-hour range of a query over the hourly totals. */
function totalsClause(query: LogQuery): { where: string; params: Parameters } {
  const params: Parameters = { profile: query.profileId, to_s: Math.ceil(query.range.to.getTime() / 1000) };
  const where = ['profile_id = {profile:String}', "hour < toDateTime({to_s:Int64}, 'UTC')"];
  if (query.range.from !== null) {
    where.push("hour >= toDateTime({from_s:Int64}, 'UTC')");
    params.from_s = Math.floor(query.range.from.getTime() / 1000);
  }
  return { where: where.join(' AND '), params };
}

/**
 * The stored columns as they are: expressions cost the engine planning time on every query (about 1 ms of
 * the ~7 ms a tail of an empty window takes on chdb), so times and node ids are converted here instead. The
 * one alias differs from its column's name: an alias would replace its column in WHERE and ORDER BY.
 */
const ROW_COLUMNS = `profile_id, ts, toString(row_id) AS row_key, pop, node, device_id, device_name, client_ip,
  transport, qname, qtype, status, reason_list_id, reason_list_name, reason_rule, operator_code, rcode,
  dnssec_validated, cache_hit, latency_us, answer_ips`;

interface StoredRow {
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
}

function rowOf(stored: StoredRow): QueryLogRow {
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
  };
}

const count = (value: string | number) => Number(value);

/**
 * The windows below the newest time asked for that a newest-first read tries, in turn, before its whole
 * range: a day answers most tails (the two daily partitions it spans), a week most of the rest.
 */
const NEWEST_FIRST_WINDOWS_MS = [86_400_000, 8 * 86_400_000];

/**
 * How much wider than the rows found so far suggest the next window is made: a window that found `k` rows
 * of `limit` is followed by one this many times `limit / k` as wide, so that a profile logging a little less
 * than `limit` rows a day is answered by its second read without reading a week of partitions.
 */
const WINDOW_MARGIN = 1.5;

/**
 * The windows a newest-first read of `limit` rows tries after `window` found `found` rows (fewer than
 * `limit`): the window the rows found suggest (when they found some and it is narrower than the next fixed
 * one), then the remaining fixed windows; none after the widest, which leaves the whole range.
 */
function widerWindows(window: number, found: number, limit: number): number[] {
  const fixed = NEWEST_FIRST_WINDOWS_MS.filter((next) => next > window);
  const next = fixed[0];
  if (found === 0 || next === undefined) return fixed;
  const suggested = Math.ceil((window * WINDOW_MARGIN * limit) / found);
  return suggested < next ? [suggested, ...fixed] : fixed;
}

/**
 * Log and analytics reads on the query_log and query_totals_hourly tables (migration 0002), for chdb and a
 * ClickHouse server alike. Values are bound parameters only; the SQL text is chosen from fixed fragments.
 * Row scans use the (profile_id, ts, row_id) order key, so a tail reads the newest granules of one profile.
 */
export class ClickHouseQueryLogReader implements QueryLogReader {
  constructor(
    /** The connections reads run on (the store opens lazily, hence the promise). */
    private readonly reads: () => Promise<ClickHouseReadPool>,
    private readonly kind: 'server' | 'embedded',
    private readonly limits: QueryLogReaderLimits = CLOUD_QUERY_LIMITS,
    /** Makes each SELECT a `clickhouse SELECT` span. */
    private readonly tracer: StorageCallTracer = untracedStorageCalls,
  ) {
    this.settingsClause = settingsClauseOf(limits);
  }

  /** The ceilings as the query's own SETTINGS clause (numbers from the configuration, never input). */
  private readonly settingsClause: string;

  /**
   * Rows newest first (or, for a tail resuming after a position, the rows after it, oldest first). Read
   * newest-first in widening windows ({@link NEWEST_FIRST_WINDOWS_MS}, and in between the width the rows
   * found so far suggest, {@link widerWindows}) below the newest time asked for: a window holding `limit`
   * rows holds the answer, since every row outside it is older than all rows in it, and it reads the parts of
   * a day or a few days of daily partitions instead of every part of the range.
   */
  async rows(query: RowQuery, limit: number): Promise<QueryLogRow[]> {
    const clause = rowClause(query);
    const params: Parameters = { ...clause.params, limit };
    let where = clause.where;
    let order = 'ts DESC, row_id DESC';
    let newest = query.range.to.getTime();
    const position = query.position;
    if (position !== null) {
      params.pos_ms = position.ts;
      params.pos_row = position.rowId;
      const at = "fromUnixTimestamp64Milli({pos_ms:Int64}, 'UTC')";
      if (query.shape === 'tail') {
        where += ` AND ts >= ${at} AND (ts, row_id) > (${at}, {pos_row:UInt64})`;
        order = 'ts ASC, row_id ASC';
      } else {
        where += ` AND ts <= ${at} AND (ts, row_id) < (${at}, {pos_row:UInt64})`;
        newest = Math.min(newest, position.ts + 1);
      }
    }
    const select = (prewhere: string, bound: Parameters) =>
      this.select<StoredRow>(
        `SELECT ${ROW_COLUMNS} FROM query_log PREWHERE ${prewhere} WHERE ${where}
         ORDER BY ${order} LIMIT {limit:UInt32}`,
        { ...params, ...bound },
      );
    if (order.startsWith('ts ASC')) return (await select(clause.prewhere, {})).map(rowOf).reverse();
    const oldest = query.range.from?.getTime() ?? Number.NEGATIVE_INFINITY;
    /** The prewhere of the rows at or after the time bound to the parameter `name`. */
    const since = (name: string) =>
      `${clause.prewhere} AND ts >= fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;
    let windows = NEWEST_FIRST_WINDOWS_MS.slice(0, 1);
    for (let window = windows.shift(); window !== undefined; window = windows.shift()) {
      const start = newest - window;
      if (start <= oldest) break;
      const stored = await select(since('window_ms'), { window_ms: start });
      if (stored.length >= limit) return stored.map(rowOf);
      if (stored.length === 0) {
        // Nothing in the newest window: where the older rows start is found by reading their times alone,
        // and all columns are read for those rows only (none at all for a profile with no rows).
        const boundary = await this.oldestOfNewest(clause, params, start, limit);
        return boundary === null
          ? []
          : (await select(since('boundary_ms'), { boundary_ms: boundary })).map(rowOf);
      }
      windows = widerWindows(window, stored.length, limit);
    }
    return (await select(clause.prewhere, {})).map(rowOf);
  }

  /**
   * The time of the oldest of the newest `limit` rows matching `clause` older than `before` (ms), or null when
   * there is none: a read of the time column (and the filtered ones) only, whose answer bounds the window
   * that holds those rows.
   */
  private async oldestOfNewest(
    clause: Clause,
    params: Parameters,
    before: number,
    limit: number,
  ): Promise<number | null> {
    const [found] = await this.select<{ rows: string | number; oldest_ms: string | number }>(
      `SELECT count() AS rows, toUnixTimestamp64Milli(min(ts)) AS oldest_ms FROM (
         SELECT ts FROM query_log
         PREWHERE ${clause.prewhere} AND ts < fromUnixTimestamp64Milli({before_ms:Int64}, 'UTC')
         WHERE ${clause.where} ORDER BY ts DESC LIMIT {limit:UInt32})`,
      { ...params, before_ms: before, limit },
    );
    return found === undefined || count(found.rows) === 0 ? null : count(found.oldest_ms);
  }

  async statusCounts(
    query: AnalyticsQuery,
    source: CountSource,
  ): Promise<Array<{ status: QueryStatus; count: number }>> {
    const rows =
      source === 'totals'
        ? await this.select<{ status: string; count: string }>(
            `SELECT status, sum(count) AS count FROM query_totals_hourly WHERE ${totalsClause(query).where}
             GROUP BY status`,
            totalsClause(query).params,
          )
        : await this.withRows<{ status: string; count: string }>(
            query,
            (clause) => `SELECT status, count() AS count FROM query_log PREWHERE ${clause.prewhere}
                         WHERE ${clause.where} GROUP BY status`,
          );
    return rows.map((row) => ({ status: row.status as QueryStatus, count: count(row.count) }));
  }

  async timeline(
    query: AnalyticsQuery,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: Date; status: QueryStatus; count: number }>> {
    let rows: Array<{ bucket: string | number; status: string; count: string }>;
    if (source === 'totals') {
      const totals = totalsClause(query);
      rows = await this.select(
        `SELECT intDiv(toUnixTimestamp(hour), {bucket:UInt32}) * {bucket:UInt32} AS bucket, status,
                sum(count) AS count
         FROM query_totals_hourly WHERE ${totals.where} GROUP BY bucket, status`,
        { ...totals.params, bucket: bucketSeconds },
      );
    } else {
      rows = await this.withRows(
        query,
        (clause) => `SELECT intDiv(toUnixTimestamp(ts), {bucket:UInt32}) * {bucket:UInt32} AS bucket, status,
                            count() AS count
                     FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} GROUP BY bucket, status`,
        { bucket: bucketSeconds },
      );
    }
    return rows.map((row) => ({
      bucket: new Date(Number(row.bucket) * 1000),
      status: row.status as QueryStatus,
      count: count(row.count),
    }));
  }

  async topNames(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.topBy(query, 'qname', '1');
  }

  async topDevices(
    query: AnalyticsQuery,
  ): Promise<Array<{ deviceId: string; deviceName: string; count: number }>> {
    const rows = await this.withRows<{ key: string; device_name: string; count: string }>(
      query,
      (clause) => `SELECT device_id AS key, argMax(device_name, ts) AS device_name, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} AND device_id != ''
                   GROUP BY key ORDER BY count DESC, key ASC LIMIT {limit:UInt32}`,
      { limit: query.limit },
    );
    return rows.map((row) => ({ deviceId: row.key, deviceName: row.device_name, count: count(row.count) }));
  }

  async topAnswerAddresses(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.topBy(query, 'arrayJoin(arrayDistinct(answer_ips))', '1');
  }

  async decisions(query: AnalyticsQuery): Promise<Array<DecisionFields & { count: number }>> {
    const rows = await this.withRows<{
      status: string;
      reason_list_id: number | null;
      reason_list_name: string;
      reason_rule: string;
      operator_code: string;
      count: string;
    }>(
      query,
      (
        clause,
      ) => `SELECT status, reason_list_id, reason_list_name, reason_rule, operator_code, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where}
                   GROUP BY status, reason_list_id, reason_list_name, reason_rule, operator_code`,
    );
    return rows.map((row) => ({
      status: row.status as QueryStatus,
      reasonListId: row.reason_list_id,
      reasonListName: row.reason_list_name,
      reasonRule: row.reason_rule,
      operatorCode: row.operator_code as OperatorCode | '',
      count: count(row.count),
    }));
  }

  async nameAnswers(
    query: AnalyticsQuery,
  ): Promise<Array<{ qname: string; answerIps: string[]; count: number }>> {
    const rows = await this.withRows<{ qname: string; answer_ips: string[]; count: string }>(
      query,
      (clause) => `SELECT qname, answer_ips, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} GROUP BY qname, answer_ips`,
    );
    return rows.map((row) => ({ qname: row.qname, answerIps: row.answer_ips, count: count(row.count) }));
  }

  async topPops(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.topBy(query, 'pop', "pop != ''");
  }

  /** Top values of `expression` (a fixed fragment) by count, ties by value ascending. */
  private async topBy(query: AnalyticsQuery, expression: string, condition: string): Promise<NameCount[]> {
    const rows = await this.withRows<{ key: string; count: string }>(
      query,
      (clause) => `SELECT ${expression} AS key, count() AS count
                   FROM query_log PREWHERE ${clause.prewhere} WHERE ${clause.where} AND ${condition}
                   GROUP BY key ORDER BY count DESC, key ASC LIMIT {limit:UInt32}`,
      { limit: query.limit },
    );
    return rows.map((row) => ({ key: row.key, count: count(row.count) }));
  }

  private async withRows<T>(
    query: LogQuery,
    sql: (clause: Clause) => string,
    extra: Parameters = {},
  ): Promise<T[]> {
    const clause = rowClause(query);
    return this.select<T>(sql(clause), { ...clause.params, ...extra });
  }

  /**
   * Runs one SELECT under the cloud ceilings. Past max_execution_time the store stops the query itself; should
   * its answer still not come, the client gives up and kills the query by its id on a server.
   */
  private async select<T>(query: string, params: Parameters): Promise<T[]> {
    return this.tracer('clickhouse SELECT', { 'db.system': 'clickhouse', 'db.operation': 'SELECT' }, () =>
      this.selectUntraced<T>(query, params),
    );
  }

  private async selectUntraced<T>(query: string, params: Parameters): Promise<T[]> {
    return (await this.reads()).use((client) => this.selectOn<T>(client, query, params));
  }

  private async selectOn<T>(client: ClickHouseClient, query: string, params: Parameters): Promise<T[]> {
    const queryId = randomUUID();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.limits.maxExecutionSeconds * 1000 + ABANDON_GRACE_MS);
    try {
      const result = await client.query({
        query: `${query} ${this.settingsClause}`,
        query_params: params,
        query_id: queryId,
        format: 'JSONEachRow',
        abort_signal: abort.signal,
      });
      return jsonEachRow<T>(await result.text());
    } catch (error) {
      if (abort.signal.aborted) {
        await this.kill(client, queryId);
        throw new DomainError('query_timeout', 'The query ran too long and was cancelled.', { cause: error });
      }
      throw translated(error, this.limits);
    } finally {
      clearTimeout(timer);
    }
  }

  private async kill(client: ClickHouseClient, queryId: string): Promise<void> {
    if (this.kind !== 'server') return;
    await client
      .command({ query: 'KILL QUERY WHERE query_id = {id:String} ASYNC', query_params: { id: queryId } })
      .catch(() => undefined);
  }
}

/**
 * JSONEachRow text as its rows, one JSON object a line. Parsed here from the whole text: the client's
 * streaming parser costs about 1 ms more per query (measured on chdb), and answers are materialised anyway.
 */
function jsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return rows;
}

/**
 * The ceilings of one query. Written into the query rather than sent as request settings: embedded chdb keeps
 * request settings for the rest of its session, where they would bind every later query of other contexts.
 */
function settingsClauseOf(limits: QueryLogReaderLimits): string {
  const whole = (value: number) => String(Math.max(1, Math.floor(value)));
  return [
    `SETTINGS max_rows_to_read = ${whole(limits.maxRowsToRead)}`,
    `max_memory_usage = ${whole(limits.maxMemoryBytes)}`,
    `max_execution_time = ${Number(limits.maxExecutionSeconds).toString()}`,
    "read_overflow_mode = 'throw'",
    "timeout_overflow_mode = 'throw'",
  ].join(', ');
}

/** A byte count as people read it: whole GiB or MiB when it is one, else bytes. */
function bytesText(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  return `${bytes} bytes`;
}

/** The store's refusals as the spec's codes; anything else stays what it is (a 500). */
function translated(error: unknown, limits: QueryLogReaderLimits): unknown {
  if (!(error instanceof Error)) return error;
  // A server's errors carry the number in `code`; embedded chdb's in `clickhouseCode`.
  const code =
    'clickhouseCode' in error ? String(error.clickhouseCode) : 'code' in error ? String(error.code) : '';
  if (TOO_EXPENSIVE.has(code) || TOO_EXPENSIVE_NAMES.test(error.message)) {
    return new DomainError(
      'query_too_expensive',
      `The query would go past the cloud ceiling (${limits.maxRowsToRead.toLocaleString('en-US')} rows read or ${bytesText(limits.maxMemoryBytes)} of memory): narrow the range or add filters.`,
      { cause: error },
    );
  }
  if (TIMED_OUT.has(code) || TIMED_OUT_NAMES.test(error.message)) {
    return new DomainError('query_timeout', 'The query ran too long and was cancelled.', { cause: error });
  }
  return error;
}
