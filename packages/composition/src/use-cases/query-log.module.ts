import {
  ClickHouseClientSource,
  ClickHouseQueryLogReader,
  NewestRowsQueryLogReader,
  openMaxMindCountryLookup,
  type StorageCallTracer,
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
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import {
  CursorSealerToken,
  LogQueryServiceToken,
  OptionalQueryLogReaderToken,
  ProfileServiceToken,
} from './use-case.tokens.js';

/**
 * Binds log and analytics queries (spec 4.6, 8): the reader on the columnar store when one is bound, countries
 * from SVC_GEOIP_DB, the relay to self-hosted nodes (503 node_offline unless the HTTP server's node links bound
 * their LogQueryRelay before this loads), and the per-organisation budget and concurrency gate of the process.
 */
export function queryLogsModule(
  settings: Pick<Settings, 'storage' | 'queryLogs'>,
  tracer: StorageCallTracer,
): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    if (isBound(ClickHouseClientSource)) {
      bind<QueryLogReader>(QueryLogReader).toResolvedValue(
        (store: ClickHouseClientSource) => {
          const reader = new ClickHouseQueryLogReader(
            async () => (await store.store()).reads,
            settings.storage.clickhouseUrl === undefined ? 'embedded' : 'server',
            settings.queryLogs.cloudQueryLimits,
            tracer,
          );
          return new NewestRowsQueryLogReader(reader, async () => (await store.store()).newestRows);
        },
        [ClickHouseClientSource],
      );
    }
    if (isBound(QueryLogReader)) {
      bind<QueryLogReader | null>(OptionalQueryLogReaderToken).toResolvedValue(
        (reader: QueryLogReader) => reader,
        [QueryLogReader],
      );
    } else {
      bind<QueryLogReader | null>(OptionalQueryLogReaderToken).toConstantValue(null);
    }
    bind<CountryLookup>(CountryLookup).toResolvedValue(async () =>
      settings.queryLogs.geoipDb === undefined
        ? new NoCountryLookup()
        : openMaxMindCountryLookup(settings.queryLogs.geoipDb),
    );
    if (!isBound(LogQueryRelay))
      bind<LogQueryRelay>(LogQueryRelay).toConstantValue(new OfflineLogQueryRelay());
    if (!isBound(Timers)) bind<Timers>(Timers).toConstantValue(new SystemTimers());
    bind<LogQueryService>(LogQueryServiceToken).toResolvedValue(
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
        OptionalQueryLogReaderToken,
        LogQueryRelay,
        DeviceStore,
        CountryLookup,
        CursorSealerToken,
        KeyedHash,
        Clock,
        Timers,
      ],
    );
  });
}
