import {
  ClickHouseClientSource,
  ClickHouseQueryLogReader,
  NewestRowsQueryLogReader,
  openMaxMindCountryLookup,
  SystemTimers,
} from '@svc/adapters';
import {
  Clock,
  CountryLookup,
  type CursorSealer,
  DeviceStore,
  KeyedHash,
  LogCursors,
  LogQueryRelay,
  LogQueryService,
  NoCountryLookup,
  OfflineLogQueryRelay,
  type ProfileService,
  QueryBudget,
  QueryConcurrencyGate,
  QueryLogReader,
  Timers,
} from '@svc/domain';
import type { Container } from 'inversify';
import { traced } from '../observability/tracing.js';
import type { Settings } from '../settings/settings.js';
import { CursorSealerToken, LogQueryServiceToken, ProfileServiceToken } from './tokens.js';

/** The reader of the cloud columnar store, or null when the server has none (memory storage). */
const OptionalQueryLogReader = Symbol.for('svc.OptionalQueryLogReader');

/**
 * Binds log and analytics queries (spec 4.6, 8): the reader on the columnar store when one is configured,
 * countries from SVC_GEOIP_DB, the relay to self-hosted nodes (503 node_offline until the node link binds
 * its own LogQueryRelay first), and the per-organisation budget and concurrency gate of this API server.
 */
export function bindQueryLogs(container: Container, settings: Settings): void {
  if (container.isBound(ClickHouseClientSource)) {
    container.bind<QueryLogReader>(QueryLogReader).toResolvedValue(
      (store: ClickHouseClientSource) => {
        const reader = new ClickHouseQueryLogReader(
          async () => (await store.store()).reads,
          settings.clickhouseUrl === undefined ? 'embedded' : 'server',
          settings.cloudQueryLimits,
          traced,
        );
        return new NewestRowsQueryLogReader(reader, async () => (await store.store()).newestRows);
      },
      [ClickHouseClientSource],
    );
  }
  container
    .bind<QueryLogReader | null>(OptionalQueryLogReader)
    .toResolvedValue(async () =>
      container.isBound(QueryLogReader) ? container.getAsync<QueryLogReader>(QueryLogReader) : null,
    );
  container
    .bind<CountryLookup>(CountryLookup)
    .toResolvedValue(async () =>
      settings.geoipDb === undefined ? new NoCountryLookup() : openMaxMindCountryLookup(settings.geoipDb),
    );
  if (!container.isBound(LogQueryRelay)) {
    container.bind<LogQueryRelay>(LogQueryRelay).toConstantValue(new OfflineLogQueryRelay());
  }
  if (!container.isBound(Timers)) container.bind<Timers>(Timers).toConstantValue(new SystemTimers());
  container.bind<LogQueryService>(LogQueryServiceToken).toResolvedValue(
    (
      profiles: ProfileService,
      reader: QueryLogReader | null,
      relay: LogQueryRelay,
      devices: DeviceStore,
      countries: CountryLookup,
      sealer: CursorSealer,
      hash: KeyedHash,
      clock: Clock,
      timers: Timers,
    ) =>
      new LogQueryService({
        profiles,
        reader,
        relay,
        devices,
        countries,
        cursors: new LogCursors(sealer, (data) => hash.sha256(data)),
        budget: new QueryBudget(clock),
        gate: new QueryConcurrencyGate(timers),
        clock,
      }),
    [
      ProfileServiceToken,
      OptionalQueryLogReader,
      LogQueryRelay,
      DeviceStore,
      CountryLookup,
      CursorSealerToken,
      KeyedHash,
      Clock,
      Timers,
    ],
  );
}
