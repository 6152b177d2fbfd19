import type { DeviceRecord, DeviceStore } from '../devices/device.ports.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import { timelineRows, topOwners, topReasons, withStatuses } from './analytics-rows.js';
import { ColumnarDestinationHints } from './columnar-destination-hints.js';
import { DeviceDisplayNames } from './device-display-names.js';
import { isPublicAddress } from './ip-prefix.js';
import { timesInZone } from './local-buckets.js';
import type { LogCursorBinding, LogCursors, LogPosition } from './log-cursor.js';
import { type AnalyticsQuery, type LogQuery, queryFingerprint, type RowQuery } from './log-query.js';
import { planQuery, type QueryPlan } from './log-query.plan.js';
import type { CountryLookup, CountSource, LogQueryRelay, QueryLogReader } from './log-query.ports.js';
import { resolveRange } from './log-query.range.js';
import { analyticsQueryOf, filtersOf } from './log-query.requests.js';
import {
  type AnalyticsQueryParameters,
  type AnalyticsShape,
  LOG_LIMIT_DEFAULT,
  type LogQueryParameters,
  type QueryCell,
  type QueryResult,
} from './log-query.schemas.js';
import { AddressOwners } from './owner-classification.js';
import type { QueryBudget } from './query-budget.js';
import type { QueryConcurrencyGate } from './query-concurrency.js';
import { QUERY_STATUSES, type QueryLogRow } from './query-log-row.js';
import { emptyResult, logRowsResult, SHAPE_COLUMNS } from './query-result.js';

/** What log and analytics queries are built from. */
export interface LogQueryDependencies {
  /** Finds the caller's profile (404 for another organisation's). */
  profiles: { get(orgId: string, profileId: string): Promise<ProfileRecord> };
  /** The cloud columnar store; null when none is configured (501 not_implemented where it is needed). */
  reader: QueryLogReader | null;
  relay: LogQueryRelay;
  devices: Pick<DeviceStore, 'find' | 'list'>;
  countries: CountryLookup;
  cursors: LogCursors;
  budget: QueryBudget;
  gate: QueryConcurrencyGate;
  clock: Clock;
}

/**
 * Log and analytics queries of a profile (spec 2.11, 4.6, 8): parameters → validated query → plan (source,
 * range, cost) → the columnar store, the profile's node, or nothing; guarded by the organisation's cost
 * budget and concurrency limit.
 */
export class LogQueryService {
  private readonly hints = new ColumnarDestinationHints();
  private readonly owners = new AddressOwners();
  private readonly deviceNames: DeviceDisplayNames;

  constructor(private readonly deps: LogQueryDependencies) {
    this.deviceNames = new DeviceDisplayNames(deps.devices);
  }

  /** GET /v1/profiles/{id}/logs. */
  async logs(orgId: string, profileId: string, parameters: LogQueryParameters): Promise<QueryResult> {
    const found = this.deps.profiles.get(orgId, profileId);
    // Awaited on every path below; this only keeps a 404 that loses the race to another error from counting as
    // an unhandled rejection.
    found.catch(() => undefined);
    let query: RowQuery;
    let binding: LogCursorBinding;
    try {
      const shape = parameters.mode;
      const filters = filtersOf(parameters, shape === 'search' ? 'substring' : 'exact');
      binding = { profileId, mode: shape, fingerprint: queryFingerprint(filters, parameters) };
      query = {
        shape,
        profileId,
        range: resolveRange(shape, parameters.from, parameters.to, this.deps.clock.now()),
        filters,
        limit: parameters.limit ?? LOG_LIMIT_DEFAULT,
        bucketSeconds: 0,
        position: parameters.cursor === undefined ? null : this.deps.cursors.open(binding, parameters.cursor),
        timeZone: parameters.tz,
      };
    } catch (error) {
      // Another organisation's profile is 404 whatever else is wrong with the request.
      await found;
      throw error;
    }
    const result = await this.routed(orgId, found, query, binding, (r) => this.rowsAnswer(r, query, binding));
    return timesInZone(result, query.timeZone);
  }

  /** A page of rows from the columnar store: the newest for a tail, or a search's next page. */
  private async rowsAnswer(
    reader: QueryLogReader,
    query: RowQuery,
    binding: LogCursorBinding,
  ): Promise<QueryResult> {
    const { shape, profileId, position } = query;
    if (shape === 'tail') {
      const reading = reader.rows(query, query.limit);
      // A tail polling after a position mostly finds no new rows: its devices are read only when needed.
      const devices = position === null ? this.deviceNames.firstPage(profileId) : undefined;
      const rows = await reading;
      const newest = rows[0];
      const next: LogPosition =
        newest !== undefined
          ? { ts: newest.ts.getTime(), rowId: newest.rowId }
          : (position ?? { ts: Math.max(0, (query.range.from?.getTime() ?? 0) - 1), rowId: '0' });
      return this.columnarRows(query, rows, devices, this.deps.cursors.seal(binding, next));
    }
    const reading = reader.rows(query, query.limit + 1);
    const devices = this.deviceNames.firstPage(profileId);
    const fetched = await reading;
    const rows = fetched.slice(0, query.limit);
    const last = rows.at(-1);
    return this.columnarRows(
      query,
      rows,
      devices,
      fetched.length > query.limit && last !== undefined
        ? this.deps.cursors.seal(binding, { ts: last.ts.getTime(), rowId: last.rowId })
        : null,
    );
  }

  /** Rows of the columnar store as the answer, with the display names of their devices. */
  private async columnarRows(
    query: RowQuery,
    rows: QueryLogRow[],
    devices: Promise<DeviceRecord[]> | undefined,
    nextCursor: string | null,
  ): Promise<QueryResult> {
    return logRowsResult({
      shape: query.shape,
      source: 'columnar',
      rows,
      displayNames: await this.deviceNames.namesOf(
        query.profileId,
        rows.map((row) => row.deviceId),
        devices,
      ),
      nextCursor,
    });
  }

  /** GET /v1/profiles/{id}/analytics/{shape}. */
  async analytics(
    orgId: string,
    profileId: string,
    shape: AnalyticsShape,
    parameters: AnalyticsQueryParameters,
  ): Promise<QueryResult> {
    const found = this.deps.profiles.get(orgId, profileId);
    // Awaited on every path below; this only keeps a 404 that loses the race to another error from counting as
    // an unhandled rejection.
    found.catch(() => undefined);
    let query: AnalyticsQuery;
    try {
      query = analyticsQueryOf(profileId, shape, parameters, this.deps.clock.now());
    } catch (error) {
      // Another organisation's profile is 404 whatever else is wrong with the request.
      await found;
      throw error;
    }
    const fromTotals = planQuery(query, 'none', this.deps.reader !== null);
    if (fromTotals.counts === 'totals')
      return timesInZone(await this.totalsAnswer(orgId, found, fromTotals), query.timeZone);
    const result = await this.routed(orgId, found, query, null, async (reader) => ({
      shape,
      source: 'columnar',
      columns: [...SHAPE_COLUMNS[shape]],
      // Only per-query rows come this way: hourly totals were answered above.
      rows: await this.shapeRows(reader, query, 'rows'),
      next_cursor: null,
      partial: false,
    }));
    const answer =
      shape === 'destinations' && result.source === 'node' ? this.completeDestinations(result) : result;
    return timesInZone(answer, query.timeZone);
  }

  /**
   * Answers a query by the profile's destination (spec 4.6): `columnar` reads the store, in one of the
   * organisation's query slots and charged to its budget; self-hosted goes to the node, none answers empty.
   * When this server last found the profile with a columnar destination, the store is read while the profile
   * is looked up rather than after; the lookup still decides: another organisation's profile is 404 and a
   * destination changed meanwhile discards the read. Either way the units of a discarded read are given back.
   */
  private async routed(
    orgId: string,
    found: Promise<ProfileRecord>,
    query: LogQuery,
    binding: LogCursorBinding | null,
    columnar: (reader: QueryLogReader) => Promise<QueryResult>,
  ): Promise<QueryResult> {
    const reader = this.deps.reader;
    if (reader === null || !this.hints.likely(orgId, query.profileId)) {
      const profile = await found;
      this.hints.learn(profile);
      const plan = this.plan(query, profile);
      if (plan.source !== 'columnar') return this.elsewhere(plan, orgId, binding);
      const configured = this.requireReader();
      return this.guarded(orgId, plan, () => columnar(configured));
    }
    // A profile gone since is no longer expected to be columnar.
    found.catch(() => this.hints.forget(query.profileId));
    // Cloud and both are planned alike: the guess is the plan whenever the profile confirms it.
    const guess = planQuery(query, 'cloud', true);
    const { profile, answer } = await this.alongsideLookup(orgId, found, guess.cost, () => columnar(reader));
    this.hints.learn(profile);
    const plan = this.plan(query, profile);
    if (plan.source === 'columnar') return answer;
    this.deps.budget.refund(orgId, guess.cost);
    return this.elsewhere(plan, orgId, binding);
  }

  /**
   * counts_by_status and timeline filtered by time only: answered from the hourly totals whatever the
   * profile's destination, so the store is read while the profile is looked up (which only decides 404), and
   * the answer waits for both. Units taken for a profile that turns out not to be the caller's are given back.
   */
  private async totalsAnswer(
    orgId: string,
    found: Promise<ProfileRecord>,
    plan: QueryPlan,
  ): Promise<QueryResult> {
    const reader = this.requireReader();
    const query = plan.query as AnalyticsQuery;
    const { answer } = await this.alongsideLookup(orgId, found, plan.cost, async () => ({
      shape: query.shape,
      source: 'columnar',
      columns: [...SHAPE_COLUMNS[query.shape]],
      rows: await this.shapeRows(reader, query, plan.counts),
      next_cursor: null,
      partial: false,
    }));
    return answer;
  }

  /**
   * Charges `cost` and starts `work` in one of the organisation's query slots while the profile is still being
   * looked up, then answers the profile with the work still running. A profile that turns out not to be the
   * caller's is 404 with the units given back, and stays 404 when the budget is spent or no slot frees in time.
   */
  private async alongsideLookup(
    orgId: string,
    found: Promise<ProfileRecord>,
    cost: number,
    work: () => Promise<QueryResult>,
  ): Promise<{ profile: ProfileRecord; answer: Promise<QueryResult> }> {
    try {
      this.deps.budget.take(orgId, cost);
    } catch (error) {
      await found;
      throw error;
    }
    const answer = this.deps.gate.run(orgId, work);
    // Awaited by the caller once the profile is known; a failure meanwhile is not unhandled.
    answer.catch(() => undefined);
    try {
      return { profile: await found, answer };
    } catch (error) {
      this.deps.budget.refund(orgId, cost);
      throw error;
    }
  }

  private plan(query: LogQuery, profile: ProfileRecord): QueryPlan {
    return planQuery(query, profile.settings.log_destination, this.deps.reader !== null);
  }

  private requireReader(): QueryLogReader {
    if (this.deps.reader === null) {
      throw new DomainError(
        'not_implemented',
        'This server has no columnar store configured for query logs.',
      );
    }
    return this.deps.reader;
  }

  /**
   * Destination none answers empty; self-hosted goes to the profile's node, whose next position is sealed
   * here like a cloud cursor (`binding`: the log query's; analytics answers have no pages).
   */
  private async elsewhere(
    plan: QueryPlan,
    orgId: string,
    binding: LogCursorBinding | null,
  ): Promise<QueryResult> {
    if (plan.source === 'none') return emptyResult(plan.query.shape, 'none');
    const { nextPosition, ...answer } = await this.deps.relay.answer(plan.query, orgId);
    return {
      ...answer,
      next_cursor:
        nextPosition == null || binding === null ? null : this.deps.cursors.seal(binding, nextPosition),
    };
  }

  /** Charges the budget, then runs in one of the organisation's query slots. */
  private async guarded(
    orgId: string,
    plan: QueryPlan,
    work: () => Promise<QueryResult>,
  ): Promise<QueryResult> {
    this.deps.budget.take(orgId, plan.cost);
    return this.deps.gate.run(orgId, work);
  }

  private async shapeRows(
    reader: QueryLogReader,
    query: AnalyticsQuery,
    source: CountSource,
  ): Promise<QueryCell[][]> {
    switch (query.shape) {
      case 'counts_by_status': {
        const counts = new Map(
          (await reader.statusCounts(query, source)).map((row) => [row.status, row.count]),
        );
        const shown =
          query.filters.statuses.length === 0
            ? QUERY_STATUSES
            : QUERY_STATUSES.filter((status) => query.filters.statuses.includes(status));
        return shown.map((status) => [status, counts.get(status) ?? 0]);
      }
      case 'timeline':
        return timelineRows(
          await reader.timeline(
            query,
            source,
            source === 'totals' ? Math.max(3_600, query.bucketSeconds) : query.bucketSeconds,
          ),
        );
      case 'top_domains':
        return (await reader.topNames(query)).map((row) => [row.key, row.count]);
      case 'top_blocked': {
        const blocked = withStatuses(query, ['blocked'], 'intersect');
        if (blocked === null) return [];
        return (await reader.topNames(blocked)).map((row) => [row.key, row.count]);
      }
      case 'top_devices': {
        const reading = reader.topDevices(query);
        const page = this.deviceNames.firstPage(query.profileId);
        const devices = await reading;
        const names = await this.deviceNames.namesOf(
          query.profileId,
          devices.map((row) => row.deviceId),
          page,
        );
        return devices.map((row) => [row.deviceId, names.get(row.deviceId) ?? row.deviceName, row.count]);
      }
      case 'destinations': {
        const allowed = withStatuses(query, ['allowed'], 'default');
        const addresses = await reader.topAnswerAddresses(allowed ?? query);
        return addresses.map((row) => [
          row.key,
          row.count,
          this.countryOf(row.key),
          this.owners.ownerOf(row.key),
        ]);
      }
      case 'top_reasons': {
        const decided = withStatuses(query, ['blocked', 'rewritten'], 'default') ?? query;
        return topReasons(await reader.decisions(decided), query.limit);
      }
      case 'top_owners':
        return topOwners(await reader.nameAnswers(query), query.limit, this.owners);
      case 'top_pops':
        return (await reader.topPops(query)).map((row) => [row.key, row.count]);
    }
  }

  private countryOf(ip: string): string {
    return isPublicAddress(ip) ? this.deps.countries.countryOf(ip) : '';
  }

  /**
   * A node's destinations answer (spec 4.6 rule 5): an empty country is filled from this server's database,
   * and answers of older nodes get both columns.
   */
  private completeDestinations(result: QueryResult): QueryResult {
    const names = result.columns.map((column) => column.name);
    const ip = names.indexOf('ip');
    if (ip < 0) return result;
    const country = names.indexOf('country');
    const owner = names.indexOf('owner');
    const columns = [...result.columns];
    if (country < 0) columns.push({ name: 'country', type: 'string' });
    if (owner < 0) columns.push({ name: 'owner', type: 'string' });
    const rows = result.rows.map((cells) => {
      const address = String(cells[ip]);
      const completed = [...cells];
      if (country < 0) completed.push(this.countryOf(address));
      else if (completed[country] === '' || completed[country] === null)
        completed[country] = this.countryOf(address);
      if (owner < 0) completed.push(this.owners.ownerOf(address));
      return completed;
    });
    return { ...result, columns, rows };
  }
}
