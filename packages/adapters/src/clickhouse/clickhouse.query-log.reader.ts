import type {
  AnalyticsQuery,
  CountSource,
  DecisionFields,
  LogQuery,
  NameCount,
  OperatorCode,
  QueryLogReader,
  QueryLogRow,
  QueryStatus,
  RowQuery,
} from '@svc/domain';
import { type StorageCallTracer, untracedStorageCalls } from '../tracing/storage-call-tracer.js';
import {
  CLOUD_QUERY_LIMITS,
  ClickHouseQueryExecutor,
  type QueryLogReaderLimits,
} from './clickhouse.query-log.executor.js';
import {
  type Clause,
  decisionsSelect,
  nameAnswersSelect,
  oldestOfNewestSelect,
  type Parameters,
  rowClause,
  rowOf,
  rowsSelect,
  type StoredRow,
  statusCountsOfRows,
  statusCountsOfTotals,
  timelineOfRows,
  timelineOfTotals,
  topBySelect,
  topDevicesSelect,
  totalsClause,
  zonedTimelineOfRows,
} from './clickhouse.query-log.sql.js';
import type { ClickHouseReadPool } from './clickhouse.read-pool.js';

export { CLOUD_QUERY_LIMITS, type QueryLogReaderLimits } from './clickhouse.query-log.executor.js';

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
 * ClickHouse server alike: which statements a read takes (clickhouse.query-log.sql.ts builds their text from
 * fixed fragments, values bound as parameters) and what their rows mean; the executor runs them. Row scans
 * use the (profile_id, ts, row_id) order key, so a tail reads the newest granules of one profile.
 */
export class ClickHouseQueryLogReader implements QueryLogReader {
  private readonly executor: ClickHouseQueryExecutor;

  constructor(
    /** The connections reads run on (the store opens lazily, hence the promise). */
    reads: () => Promise<ClickHouseReadPool>,
    kind: 'server' | 'embedded',
    limits: QueryLogReaderLimits = CLOUD_QUERY_LIMITS,
    /** Makes each SELECT a `clickhouse SELECT` span. */
    tracer: StorageCallTracer = untracedStorageCalls,
  ) {
    this.executor = new ClickHouseQueryExecutor(reads, kind, limits, tracer);
  }

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
      this.select<StoredRow>(rowsSelect(prewhere, where, order), { ...params, ...bound });
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
      oldestOfNewestSelect(clause),
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
            statusCountsOfTotals(totalsClause(query).where),
            totalsClause(query).params,
          )
        : await this.withRows<{ status: string; count: string }>(query, statusCountsOfRows);
    return rows.map((row) => ({ status: row.status as QueryStatus, count: count(row.count) }));
  }

  async timeline(
    query: AnalyticsQuery,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: Date; status: QueryStatus; count: number }>> {
    let rows: Array<{ bucket: string | number; status: string; count: string }>;
    const zone = query.timeZone;
    const params = zone === undefined ? { bucket: bucketSeconds } : { bucket: bucketSeconds, tz: zone };
    if (source === 'totals') {
      const totals = totalsClause(query);
      rows = await this.select(timelineOfTotals(totals.where, zone !== undefined), {
        ...totals.params,
        ...params,
      });
    } else {
      rows = await this.withRows(query, zone === undefined ? timelineOfRows : zonedTimelineOfRows, params);
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
      topDevicesSelect,
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
    }>(query, decisionsSelect);
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
      nameAnswersSelect,
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
      (clause) => topBySelect(clause, expression, condition),
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

  private select<T>(query: string, params: Parameters): Promise<T[]> {
    return this.executor.select<T>(query, params);
  }
}
