import type {
  AnalyticsQuery,
  CountSource,
  DecisionFields,
  NameCount,
  QueryLogReader,
  QueryLogRow,
  QueryStatus,
  RowQuery,
} from '@svc/domain';
import type { NewestRowsCache } from './newest-rows.cache.js';

/** The last millisecond DateTime64(3) holds: a fill reads the newest rows whatever their time. */
const STORE_END = new Date(Date.UTC(2299, 11, 31, 23, 59, 59, 999));

/**
 * A query-log reader that answers tails without filters from the store's {@link NewestRowsCache} when it
 * has one (an embedded store), filling a profile's entry on its first such tail, and reads the store for
 * everything else. The answers are the store's own: the entry holds exactly the profile's newest rows.
 */
export class NewestRowsQueryLogReader implements QueryLogReader {
  constructor(
    private readonly store: QueryLogReader,
    /** The cache of the store, once it is open; undefined for a store that keeps none. */
    private readonly cache: () => Promise<NewestRowsCache | undefined>,
  ) {}

  async rows(query: RowQuery, limit: number): Promise<QueryLogRow[]> {
    const cache = await this.cache();
    if (cache === undefined || !cache.serves(query, limit)) return this.store.rows(query, limit);
    const cached = cache.answer(query, limit);
    if (cached !== undefined) return cached;
    await cache.fill(query.profileId, (newest) =>
      this.store.rows(
        { ...query, range: { from: null, to: STORE_END }, position: null, shape: 'tail' },
        newest,
      ),
    );
    // Erased meanwhile, or the entry cannot tell (a range far in the past): the store answers.
    return cache.answer(query, limit) ?? this.store.rows(query, limit);
  }

  statusCounts(
    query: AnalyticsQuery,
    source: CountSource,
  ): Promise<Array<{ status: QueryStatus; count: number }>> {
    return this.store.statusCounts(query, source);
  }

  timeline(
    query: AnalyticsQuery,
    source: CountSource,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: Date; status: QueryStatus; count: number }>> {
    return this.store.timeline(query, source, bucketSeconds);
  }

  topNames(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.store.topNames(query);
  }

  topDevices(query: AnalyticsQuery): Promise<Array<{ deviceId: string; deviceName: string; count: number }>> {
    return this.store.topDevices(query);
  }

  topAnswerAddresses(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.store.topAnswerAddresses(query);
  }

  decisions(query: AnalyticsQuery): Promise<Array<DecisionFields & { count: number }>> {
    return this.store.decisions(query);
  }

  nameAnswers(query: AnalyticsQuery): Promise<Array<{ qname: string; answerIps: string[]; count: number }>> {
    return this.store.nameAnswers(query);
  }

  topPops(query: AnalyticsQuery): Promise<NameCount[]> {
    return this.store.topPops(query);
  }
}
