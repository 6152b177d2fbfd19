import type { AnalyticsShape, Problem, QueryResult, QueryStatus } from '@svc/domain';
import { type AnalyticsResult, analyticsRecords } from '../../analytics-results.js';
import { ApiError, NetworkError } from '../../errors.js';
import { serverSentEvents } from '../../event-stream.js';
import type { ApiRequest, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** A point in time for `from` and `to`: a Date, Unix milliseconds, or an RFC 3339 string. */
export type QueryInstant = Date | number | string;

/** Filters and paging shared by logs and analytics (spec 4.6); array filters repeat the parameter. */
export interface QueryFilters {
  /** Inclusive start; default: the shape's longest range before `to`. */
  from?: QueryInstant;
  /** Exclusive end; default now. */
  to?: QueryInstant;
  device?: string | readonly string[];
  status?: QueryStatus | readonly QueryStatus[];
  /** Substring for search, exact name otherwise. */
  qname?: string;
  qtype?: number | readonly number[];
  list?: number | readonly number[];
  client_ip?: string;
  /**
   * The policy that decided (issue 38): exact (`paused`, `schedule:bedtime`, `allowance`, `device:<id>`), or a
   * prefix with a trailing `*` (`schedule:*`). Log rows carry it in their `decided_by` column.
   */
  decided_by?: string;
  /**
   * IANA time zone: timeline buckets align on its local hours and midnights, and time cells carry its offset.
   * Default UTC. Pass `Intl.DateTimeFormat().resolvedOptions().timeZone` for the user's own.
   */
  tz?: string;
  /** Rows at most: default 100, 1 to 1000 (top_pops: default 10, at most 100). */
  limit?: number;
}

/** Parameters of {@link LogsResource.query}. */
export interface LogQueryOptions extends QueryFilters {
  /** `tail` (default): the latest rows, or with `cursor` the rows that arrived since; `search`: older pages. */
  mode?: 'tail' | 'search';
  /** A previous answer's next_cursor. */
  cursor?: string;
}

/** Parameters of {@link AnalyticsResource.query}. */
export interface AnalyticsQueryOptions extends QueryFilters {
  /** Timeline bucket width in seconds, 60 to 86400 (default 3600). */
  bucket?: number;
}

/** Parameters of {@link LogsResource.stream}: the filters of a tail query. */
export interface LogStreamOptions extends Omit<QueryFilters, 'to'> {
  /** Resume after this event id (a `rows` event's `cursor`) instead of starting with the latest rows. */
  cursor?: string;
  /** Ends the iteration (and the connection) when aborted. */
  signal?: AbortSignal;
  /** Wait before reconnecting after the connection ended; default 1 000 ms. */
  reconnectDelayMs?: number;
  /**
   * Told when the connection opens (each time the server accepts it) and when it dropped and a reconnection is
   * about to be tried, so that an interface can say whether it is live. Rows still arrive only as events.
   */
  onConnection?: (change: LogStreamConnection) => void;
}

/** A change of a live log stream's connection: accepted by the server, or dropped and about to reconnect. */
export type LogStreamConnection =
  | { state: 'open' }
  /** `cause` is the failure that ended the connection, undefined when the server ended it (its time limit). */
  | { state: 'reconnecting'; cause: unknown };

/** One event of a live log stream (spec 6.1). */
export type LogStreamEvent =
  | { type: 'rows'; result: QueryResult; cursor: string | undefined }
  | { type: 'error'; problem: Problem; transient: boolean }
  | { type: 'partial'; partial: true; partial_reason: string };

/** Codes after which the server keeps the stream open (spec 6.1); 5xx statuses too, except 501. */
const TRANSIENT_STREAM_CODES = new Set(['node_offline', 'node_timeout']);

/** Heartbeats come every 15 s: a connection silent for three of them is gone. */
const STREAM_IDLE_MS = 45_000;

function instant(value: QueryInstant | undefined): string | number | undefined {
  return value instanceof Date ? value.toISOString() : value;
}

function queryOf(options: LogQueryOptions & AnalyticsQueryOptions): ApiRequest['query'] {
  return {
    ...options,
    from: instant(options.from),
    to: instant(options.to),
  };
}

/** Query logs of a profile, `/v1/profiles/{id}/logs` (scope logs:read; spec 2.11, 4.6). */
export class LogsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET …/logs: rows newest first with the columns of spec 2.11 (read them with `queryRecords`). Poll a tail
   * by sending its next_cursor back; page a search with next_cursor until it is null.
   */
  async query(id: string, options: LogQueryOptions = {}): Promise<QueryResult> {
    return (
      await this.transport.send<QueryResult>({
        method: 'GET',
        path: profilePath(id, 'logs'),
        query: queryOf(options),
      })
    ).data;
  }

  /**
   * Every page of a search (`mode: 'search'`, newest first), fetched as you iterate: each page sends the
   * previous one's next_cursor until it is null. Read a page's rows with `queryRecords(page)`. Stop early
   * with `break`; a search over a long range may hold many pages.
   */
  async *pages(id: string, options: Omit<LogQueryOptions, 'mode'> = {}): AsyncGenerator<QueryResult> {
    let cursor = options.cursor;
    do {
      const page = await this.query(id, { ...options, mode: 'search', cursor });
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * GET …/logs/stream as an async iterator of events (spec 6.1): `rows` (the first carries the latest rows
   * unless resuming), `error` and `partial`. When the connection ends (the server's one-hour limit, a network
   * failure) it reconnects with Last-Event-ID, so no row is missed or repeated. Ends after an `error` event
   * the server does not continue after; a refused (re)connection throws ApiError (401 once the credential is
   * revoked, 404 once the profile is deleted, 429 too_many_streams). Stop early with `break` or `signal`.
   */
  async *stream(id: string, options: LogStreamOptions = {}): AsyncGenerator<LogStreamEvent> {
    const { signal, reconnectDelayMs = 1_000, cursor: start, onConnection, ...filters } = options;
    let cursor = start;
    const stopped = () => signal?.aborted === true;
    while (!stopped()) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal?.addEventListener('abort', abort, { once: true });
      let cause: unknown;
      try {
        const opened = await this.transport.openStream(
          {
            method: 'GET',
            path: profilePath(id, 'logs', 'stream'),
            query: queryOf(filters),
            ...(cursor === undefined ? {} : { headers: { 'last-event-id': cursor } }),
          },
          controller.signal,
          STREAM_IDLE_MS,
        );
        onConnection?.({ state: 'open' });
        for await (const event of serverSentEvents(opened.body)) {
          if (event.event === 'rows') {
            if (event.id !== undefined) cursor = event.id;
            yield { type: 'rows', result: JSON.parse(event.data) as QueryResult, cursor: event.id };
          } else if (event.event === 'partial') {
            yield {
              type: 'partial',
              ...(JSON.parse(event.data) as { partial: true; partial_reason: string }),
            };
          } else if (event.event === 'error') {
            const problem = JSON.parse(event.data) as Problem;
            const transient =
              TRANSIENT_STREAM_CODES.has(problem.code) || (problem.status >= 500 && problem.status !== 501);
            yield { type: 'error', problem, transient };
            if (!transient) return;
          }
        }
      } catch (error) {
        if (error instanceof ApiError || !(error instanceof NetworkError || isBodyFailure(error)))
          throw error;
        if (stopped()) return;
        cause = error;
      } finally {
        signal?.removeEventListener('abort', abort);
        controller.abort();
      }
      if (stopped()) return;
      onConnection?.({ state: 'reconnecting', cause });
      await delay(reconnectDelayMs, signal);
    }
  }
}

/** A body read cut short (reset, idle time-out, abort): the stream reconnects. */
function isBodyFailure(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || 'code' in error);
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Analytics aggregates of a profile, `/v1/profiles/{id}/analytics/{shape}` (scope analytics:read; spec 4.6). */
export class AnalyticsResource {
  constructor(private readonly transport: Transport) {}

  /** GET …/analytics/{shape}: the answer, with its rows as the shape's typed `records`. */
  async query<S extends AnalyticsShape>(
    id: string,
    shape: S,
    options: AnalyticsQueryOptions = {},
  ): Promise<AnalyticsResult<S>> {
    const result = (
      await this.transport.send<QueryResult>({
        method: 'GET',
        path: profilePath(id, 'analytics', encodeURIComponent(shape)),
        query: queryOf(options),
      })
    ).data;
    return { ...result, records: analyticsRecords(shape, result) };
  }

  /** Queries by status (hourly totals when filtered by time only). */
  countsByStatus(
    id: string,
    options: AnalyticsQueryOptions = {},
  ): Promise<AnalyticsResult<'counts_by_status'>> {
    return this.query(id, 'counts_by_status', options);
  }

  /** Most queried names. */
  topDomains(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_domains'>> {
    return this.query(id, 'top_domains', options);
  }

  /** Devices with the most queries. */
  topDevices(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_devices'>> {
    return this.query(id, 'top_devices', options);
  }

  /** Most blocked names. */
  topBlocked(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_blocked'>> {
    return this.query(id, 'top_blocked', options);
  }

  /** Answer addresses of allowed queries, with country and owner. */
  destinations(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'destinations'>> {
    return this.query(id, 'destinations', options);
  }

  /** Queries per bucket and status. */
  timeline(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'timeline'>> {
    return this.query(id, 'timeline', options);
  }

  /** What decided blocked and rewritten queries. */
  topReasons(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_reasons'>> {
    return this.query(id, 'top_reasons', options);
  }

  /** Platform companies and CDN operators behind the queries. */
  topOwners(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_owners'>> {
    return this.query(id, 'top_owners', options);
  }

  /** PoPs that answered the queries. */
  topPops(id: string, options: AnalyticsQueryOptions = {}): Promise<AnalyticsResult<'top_pops'>> {
    return this.query(id, 'top_pops', options);
  }
}
