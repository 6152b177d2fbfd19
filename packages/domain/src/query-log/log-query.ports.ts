import { DomainError } from '../shared/domain-error.js';
import type { DecisionFields } from './derived-columns.js';
import type { LogPosition } from './log-cursor.js';
import type { AnalyticsQuery, LogQuery, RowQuery } from './log-query.js';
import type { QueryResult } from './log-query.schemas.js';
import type { QueryLogRow, QueryStatus } from './query-log-row.js';

/** Where an aggregate over statuses is counted: the per-query rows, or the hourly totals (whole hours). */
export type CountSource = 'rows' | 'totals';

/** One (name, count) group. */
export interface NameCount {
  key: string;
  count: number;
}

/**
 * Reads the cloud columnar store for log and analytics queries. Every method reads one profile's rows within
 * the query's range and filters; statuses defaulted by a shape (top_blocked, destinations, top_reasons) are
 * already in the query's filters. Throws DomainError query_too_expensive when the store's ceiling is reached
 * and query_timeout when a query runs too long (cancelled on the store).
 */
export const QueryLogReader = Symbol.for('svc.QueryLogReader');
export interface QueryLogReader {
  /**
   * Log rows, newest first: without a position the latest `limit`; for a tail with a position the `limit`
   * oldest rows after it (still answered newest first); for a search with a position the latest `limit`
   * rows before it.
   */
  rows(query: RowQuery, limit: number): Promise<QueryLogRow[]>;
  /** Queries by status. */
  statusCounts(
    query: AnalyticsQuery,
    source: CountSource,
  ): Promise<Array<{ status: QueryStatus; count: number }>>;
  /** Queries by bucket start and status, `bucketSeconds` wide buckets aligned on the Unix epoch. */
  timeline(
    query: AnalyticsQuery,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: Date; status: QueryStatus; count: number }>>;
  /** Top names: count descending, name ascending. */
  topNames(query: AnalyticsQuery): Promise<NameCount[]>;
  /** Top devices by id (rows without a device left out), with the latest name the client sent. */
  topDevices(query: AnalyticsQuery): Promise<Array<{ deviceId: string; deviceName: string; count: number }>>;
  /** Top answer addresses: count descending, address ascending. */
  topAnswerAddresses(query: AnalyticsQuery): Promise<NameCount[]>;
  /** Every distinct decision (list, rule, operator code, status) with its count. */
  decisions(query: AnalyticsQuery): Promise<Array<DecisionFields & { count: number }>>;
  /** Queries grouped by name and answer addresses, for classifying their owners. */
  nameAnswers(query: AnalyticsQuery): Promise<Array<{ qname: string; answerIps: string[]; count: number }>>;
  /** Top PoPs (rows without a PoP left out): count descending, PoP ascending. */
  topPops(query: AnalyticsQuery): Promise<NameCount[]>;
}

/**
 * A node's answer: a query result (spec 2.11) whose next page of log rows is given as `nextPosition`, which
 * the API seals into next_cursor for the client (absent or null: no next page; a relay's own next_cursor is
 * not used, since the API opens only cursors it sealed). A tail answered partial with node_reconnecting gives
 * the query's position back, so that the client keeps its cursor.
 */
export type RelayedResult = QueryResult & { nextPosition?: LogPosition | null };

/**
 * Answers a validated query of a self-hosted profile by relaying it to the profile's node over its link
 * (spec 4.6). `query.position` is the opened cursor (a tail wants rows after it, a search rows before it).
 * Log rows of the node get their derived columns through {@link logRowCells} (query-result.ts), whatever the
 * node's version; destinations answers get their country and owner filled in by the API. Failures are DomainErrors:
 * node_offline (503, with retryAfter) when no node is connected, node_busy (503), node_timeout (504, after
 * 10 s), node_error (502), relay_unavailable (503), shape_unsupported (501) for a node too old.
 */
export const LogQueryRelay = Symbol.for('svc.LogQueryRelay');
export interface LogQueryRelay {
  answer(query: LogQuery, orgId: string): Promise<RelayedResult>;
}

/** Seconds a client should wait before asking again while no node is connected. */
export const NODE_OFFLINE_RETRY_AFTER_S = 30;

/** The relay until nodes can connect: every relayed query finds no node (503 node_offline). */
export class OfflineLogQueryRelay implements LogQueryRelay {
  async answer(): Promise<RelayedResult> {
    throw new DomainError('node_offline', 'No self-hosted node of this profile is connected.', {
      retryAfter: NODE_OFFLINE_RETRY_AFTER_S,
    });
  }
}

/** The country of a public address from the server's GeoIP database: ISO 3166-1 alpha-2, or empty. */
export const CountryLookup = Symbol.for('svc.CountryLookup');
export interface CountryLookup {
  countryOf(ip: string): string;
  /** The notice the database's licence asks to show beside countries (deployment facts); empty when none. */
  readonly attribution: string;
}

/** No GeoIP database configured: every country is empty (spec 4.6 rule 5). */
export class NoCountryLookup implements CountryLookup {
  readonly attribution = '';

  countryOf(): string {
    return '';
  }
}
