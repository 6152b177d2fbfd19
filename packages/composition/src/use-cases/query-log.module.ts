import { openMaxMindCountryLookup, SystemTimers } from '@svc/adapters';
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
  type ProfileService,
  QueryBudget,
  QueryConcurrencyGate,
  type QueryLogReader,
  Timers,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import { ColumnarQueryLog } from '../tokens.js';
import {
  CursorSealerToken,
  LogQueryServiceToken,
  OptionalQueryLogReaderToken,
  ProfileServiceToken,
} from './use-case.tokens.js';

/**
 * Binds log and analytics queries (spec 4.6, 8): the reader of the cloud query log the adapter family bound
 * (none without a columnar store), countries from SVC_GEOIP_DB, the relay to self-hosted nodes the host bound,
 * and the per-organisation budget and concurrency gate of the process.
 */
export function queryLogsModule(settings: Pick<Settings, 'queryLogs'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<QueryLogReader | null>(OptionalQueryLogReaderToken).toResolvedValue(
      (log: ColumnarQueryLog) => (log === null ? null : log.reader),
      [ColumnarQueryLog],
    );
    bind<CountryLookup>(CountryLookup).toResolvedValue(async () =>
      settings.queryLogs.geoipDb === undefined
        ? new NoCountryLookup()
        : openMaxMindCountryLookup(settings.queryLogs.geoipDb),
    );
    bind<Timers>(Timers).toConstantValue(new SystemTimers());
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
