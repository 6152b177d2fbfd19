import type { DeviceRecord, DeviceStore } from '../devices/device.ports.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.port.js';
import { DomainError, validationFailed } from '../shared/domain-error.js';
import { ColumnarDestinationHints } from './columnar-destination-hints.js';
import { deriveColumns, type ReasonCode } from './derived-columns.js';
import { isPublicAddress } from './ip-prefix.js';
import type { LogCursorBinding, LogCursors, LogPosition } from './log-cursor.js';
import {
  type AnalyticsQuery,
  type LogFilters,
  type LogQuery,
  queryFingerprint,
  type RowQuery,
} from './log-query.js';
import { planQuery, type QueryPlan } from './log-query.plan.js';
import type { CountryLookup, CountSource, LogQueryRelay, QueryLogReader } from './log-query.ports.js';
import { resolveRange } from './log-query.range.js';
import {
  type AnalyticsQueryParameters,
  type AnalyticsShape,
  LOG_LIMIT_DEFAULT,
  type LogQueryParameters,
  type QueryCell,
  type QueryResult,
  TOP_POPS_LIMIT_DEFAULT,
  TOP_POPS_LIMIT_MAX,
} from './log-query.schemas.js';
import { AddressOwners } from './owner-classification.js';
import type { QueryBudget } from './query-budget.js';
import type { QueryConcurrencyGate } from './query-concurrency.js';
import { QUERY_STATUSES, type QueryLogRow, type QueryStatus } from './query-log-row.js';
import { emptyResult, logRowsResult, SHAPE_COLUMNS } from './query-result.js';

/** Devices read at once for their display names; a profile rarely has more. */
const DEVICE_PAGE = 500;

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

/** The parameters both endpoints share, after their schemas. */
type CommonParameters = Omit<LogQueryParameters, 'mode'>;

/**
 * Log and analytics queries of a profile (spec 2.11, 4.6, 8): parameters → validated query → plan (source,
 * range, cost) → the columnar store, the profile's node, or nothing; guarded by the organisation's cost
 * budget and concurrency limit.
 */
export class LogQueryService {
  private readonly hints = new ColumnarDestinationHints();
  private readonly owners = new AddressOwners();

  constructor(private readonly deps: LogQueryDependencies) {}

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
      };
    } catch (error) {
      // Another organisation's profile is 404 whatever else is wrong with the request.
      await found;
      throw error;
    }
    return this.routed(orgId, found, query, binding, (reader) => this.rowsAnswer(reader, query, binding));
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
      const devices = position === null ? this.devicePage(profileId) : undefined;
      const rows = await reading;
      const newest = rows[0];
      const next: LogPosition =
        newest !== undefined
          ? { ts: newest.ts.getTime(), rowId: newest.rowId }
          : (position ?? { ts: Math.max(0, (query.range.from?.getTime() ?? 0) - 1), rowId: '0' });
      return this.columnarRows(query, rows, devices, this.deps.cursors.seal(binding, next));
    }
    const reading = reader.rows(query, query.limit + 1);
    const devices = this.devicePage(profileId);
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
      displayNames: await this.displayNames(
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
    if (fromTotals.counts === 'totals') return this.totalsAnswer(orgId, found, fromTotals);
    const result = await this.routed(orgId, found, query, null, async (reader) => ({
      shape,
      source: 'columnar',
      columns: [...SHAPE_COLUMNS[shape]],
      // Only per-query rows come this way: hourly totals were answered above.
      rows: await this.shapeRows(reader, query, 'rows'),
      next_cursor: null,
      partial: false,
    }));
    return shape === 'destinations' && result.source === 'node' ? this.completeDestinations(result) : result;
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
        const page = this.devicePage(query.profileId);
        const devices = await reading;
        const names = await this.displayNames(
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

  /**
   * The first page of the profile's devices, started while the store reads the rows (the two run at once, the
   * registry on the main thread, the store on its own): nearly every page of rows names some device. Settled
   * quietly when no row needs it or the rows fail first; whoever uses it awaits it and sees its error.
   */
  private devicePage(profileId: string): Promise<DeviceRecord[]> {
    const page = this.deps.devices.list(profileId, { limit: DEVICE_PAGE, after: null });
    page.catch(() => undefined);
    return page;
  }

  /**
   * Display names of the devices among `deviceIds` that have one (device registry, spec 2.5): one read of the
   * profile's devices (`page` when already started), and single lookups only for devices beyond it.
   */
  private async displayNames(
    profileId: string,
    deviceIds: readonly string[],
    page?: Promise<DeviceRecord[]>,
  ): Promise<Map<string, string>> {
    const wanted = new Set(deviceIds.filter((id) => id !== ''));
    const names = new Map<string, string>();
    if (wanted.size === 0) return names;
    const listed = await (page ?? this.deps.devices.list(profileId, { limit: DEVICE_PAGE, after: null }));
    for (const device of listed) {
      if (device.displayName !== null) names.set(device.id, device.displayName);
      wanted.delete(device.id);
    }
    if (listed.length < DEVICE_PAGE) return names;
    for (const id of wanted) {
      const device = await this.deps.devices.find(profileId, id);
      if (device?.displayName != null) names.set(id, device.displayName);
    }
    return names;
  }
}

function filtersOf(parameters: CommonParameters, qnameMatch: LogFilters['qnameMatch']): LogFilters {
  return {
    devices: parameters.device ?? [],
    statuses: parameters.status ?? [],
    qname: parameters.qname ?? null,
    qnameMatch,
    qtypes: parameters.qtype ?? [],
    lists: parameters.list ?? [],
    clientIp: parameters.client_ip ?? null,
  };
}

/**
 * The query with a shape's status rule applied: `default` uses `statuses` when the query has no status filter;
 * `intersect` keeps only `statuses` of the filter (null when nothing is left).
 */
function withStatuses(
  query: AnalyticsQuery,
  statuses: QueryStatus[],
  rule: 'default' | 'intersect',
): AnalyticsQuery | null {
  const given = query.filters.statuses;
  if (rule === 'default' && given.length > 0) return query;
  const kept =
    rule === 'default' || given.length === 0 ? statuses : statuses.filter((status) => given.includes(status));
  return kept.length === 0 ? null : { ...query, filters: { ...query.filters, statuses: kept } };
}

/** Timeline rows: one per bucket with queries, oldest first, a count column per status. */
function timelineRows(counts: Array<{ bucket: Date; status: QueryStatus; count: number }>): QueryCell[][] {
  const buckets = new Map<number, Map<QueryStatus, number>>();
  for (const row of counts) {
    const at = row.bucket.getTime();
    const byStatus = buckets.get(at) ?? new Map<QueryStatus, number>();
    byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.count);
    buckets.set(at, byStatus);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([at, byStatus]) => [
      new Date(at).toISOString(),
      ...QUERY_STATUSES.map((status) => byStatus.get(status) ?? 0),
    ]);
}

/** top_owners (spec 4.6 rule 6): unclassified queries left out; count descending, ties by owner. */
function topOwners(
  groups: Array<{ qname: string; answerIps: string[]; count: number }>,
  limit: number,
  owners: AddressOwners,
): QueryCell[][] {
  const counts = new Map<string, number>();
  for (const group of groups) {
    const owner = owners.ownerOfQuery(group.qname, group.answerIps);
    if (owner !== '') counts.set(owner, (counts.get(owner) ?? 0) + group.count);
  }
  return [...counts.entries()]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([owner, count]) => [owner, count]);
}

/**
 * top_reasons (spec 4.6 rule 4): decisions grouped by what decided them through the one derivation of the
 * log rows; count descending, ties by reason_code, list_id, reason.
 */
function topReasons(
  decisions: Awaited<ReturnType<QueryLogReader['decisions']>>,
  limit: number,
): QueryCell[][] {
  const groups = new Map<
    string,
    { code: ReasonCode; listId: number | null; reason: string; count: number }
  >();
  for (const decision of decisions) {
    const derived = deriveColumns(decision);
    const listId = derived.reasonCode === 'list' ? decision.reasonListId : null;
    const key = JSON.stringify([derived.reasonCode, listId, derived.reason]);
    const group = groups.get(key) ?? { code: derived.reasonCode, listId, reason: derived.reason, count: 0 };
    group.count += decision.count;
    groups.set(key, group);
  }
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()]
    .sort(
      (a, b) =>
        b.count - a.count ||
        text(a.code, b.code) ||
        (a.listId ?? -1) - (b.listId ?? -1) ||
        text(a.reason, b.reason),
    )
    .slice(0, limit)
    .map((group) => [group.code, group.listId, group.reason, group.count]);
}

/** The validated query of an analytics request (400 invalid_cursor, 422 for limit and range). */
function analyticsQueryOf(
  profileId: string,
  shape: AnalyticsShape,
  parameters: AnalyticsQueryParameters,
  now: Date,
): AnalyticsQuery {
  if (parameters.cursor !== undefined) {
    // Analytics results are whole: no analytics answer carries a cursor to continue.
    throw new DomainError(
      'invalid_cursor',
      'Analytics results have no pages; this cursor was not issued here.',
    );
  }
  const maxLimit = shape === 'top_pops' ? TOP_POPS_LIMIT_MAX : Number.POSITIVE_INFINITY;
  if (parameters.limit !== undefined && parameters.limit > maxLimit) {
    throw validationFailed([
      { field: 'limit', message: `must be between 1 and ${TOP_POPS_LIMIT_MAX} for top_pops` },
    ]);
  }
  return {
    shape,
    profileId,
    range: resolveRange(shape, parameters.from, parameters.to, now),
    filters: filtersOf(parameters, 'exact'),
    limit: parameters.limit ?? (shape === 'top_pops' ? TOP_POPS_LIMIT_DEFAULT : LOG_LIMIT_DEFAULT),
    bucketSeconds: parameters.bucket,
    position: null,
  };
}
