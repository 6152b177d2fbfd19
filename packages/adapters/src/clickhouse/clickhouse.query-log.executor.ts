import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { DomainError } from '@svc/domain';
import { type StorageCallTracer, untracedStorageCalls } from '../tracing/storage-call-tracer.js';
import type { Parameters } from './clickhouse.query-log.sql.js';
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

/**
 * Runs the query-log reads on the store's read connections under the cloud ceilings: each SELECT carries its
 * own SETTINGS, is traced, is abandoned (and on a server killed) when its answer does not come, and the
 * store's refusals become the spec's codes.
 */
export class ClickHouseQueryExecutor {
  /** The ceilings as the query's own SETTINGS clause (numbers from the configuration, never input). */
  private readonly settingsClause: string;

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

  /**
   * Runs one SELECT under the cloud ceilings. Past max_execution_time the store stops the query itself; should
   * its answer still not come, the client gives up and kills the query by its id on a server.
   */
  async select<T>(query: string, params: Parameters): Promise<T[]> {
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
 * streaming parser costs more CPU per query, and answers are materialised anyway.
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
