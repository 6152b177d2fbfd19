import {
  CLOUD_QUERY_LIMITS,
  ClickHouseClientSource,
  ClickHouseDeviceCounts,
  ClickHouseEdgeLogWriter,
  ClickHouseQueryLogEraser,
  ClickHouseQueryLogReader,
  createColumnarStore,
  LazyColumnarStore,
  migrateEmbeddedColumnarStore,
  NewestRowsQueryLogReader,
  ReadinessProbe,
  type StorageCallTracer,
} from '@svc/adapters';
import { ColumnarStore, DeviceCounts, EdgeLogWriter, QueryLogEraser, QueryLogReader } from '@svc/domain';
import { ClickHouseSimulatedLogWriter } from '@svc/edge-simulator';
import { ContainerModule } from 'inversify';
import type { AdapterLog, AdapterSettings } from './adapter-settings.js';
import type { Lifecycle } from './lifecycle.js';
import { ColumnarQueryLog, StoreMigrations } from './tokens.js';

/** The one lazily opened store behind the three identifiers the family binds. */
const LazyColumnarStoreToken = Symbol.for('svc.LazyColumnarStore');

/** What the ClickHouse family needs besides the settings. */
export interface ClickHouseModuleOptions {
  lifecycle: Lifecycle;
  /** Told why device counts were unavailable (the devices still list, with null counts). */
  log: AdapterLog;
  /** Wraps each read and write (the server's OpenTelemetry spans). */
  tracer: StorageCallTracer;
}

/**
 * The ClickHouse family: the columnar store of query logs and analytics (CLICKHOUSE_URL, else the embedded chdb
 * in the data dir), its client for the adapters that read and write it ({@link ClickHouseClientSource}), the
 * query-log ports on it (reader, writers, eraser, device counts), and its readiness probe. The store opens on
 * first use: the embedded chdb alone is over a hundred MB of resident memory, and no route reads the store
 * before query logs and analytics do. Migrations of the embedded store run in a short-lived child process until
 * then, so serve still applies them at start (RUNNER.md) without loading chdb here.
 */
export function clickhouseModule(
  settings: AdapterSettings['storage'],
  queryLogs: AdapterSettings['queryLogs'],
  options: ClickHouseModuleOptions,
): ContainerModule {
  const { lifecycle, log, tracer } = options;
  return new ContainerModule(({ bind }) => {
    bind<LazyColumnarStore>(LazyColumnarStoreToken).toResolvedValue(() =>
      lifecycle.own(
        'columnar store',
        new LazyColumnarStore(
          () => createColumnarStore({ url: settings.clickhouseUrl, dataDir: settings.dataDir }),
          settings.clickhouseUrl === undefined
            ? () => migrateEmbeddedColumnarStore(settings.dataDir)
            : undefined,
        ),
        (owned) => owned.close(),
      ),
    );
    bind<ColumnarStore>(ColumnarStore).toService(LazyColumnarStoreToken);
    bind<ClickHouseClientSource>(ClickHouseClientSource).toService(LazyColumnarStoreToken);
    bind<StoreMigrations>(StoreMigrations).toResolvedValue(
      (store: LazyColumnarStore): StoreMigrations => ({ store: 'columnar', migrate: () => store.migrate() }),
      [LazyColumnarStoreToken],
    );
    bind<ReadinessProbe>(ReadinessProbe).toResolvedValue(
      (store: LazyColumnarStore): ReadinessProbe => ({
        dependency: 'columnar',
        isOpen: () => store.isOpen,
        ping: () => store.ping(),
      }),
      [LazyColumnarStoreToken],
    );
    bind<QueryLogReader>(QueryLogReader).toResolvedValue(
      (store: ClickHouseClientSource) => {
        const reader = new ClickHouseQueryLogReader(
          async () => (await store.store()).reads,
          settings.clickhouseUrl === undefined ? 'embedded' : 'server',
          queryLogs?.cloudQueryLimits ?? CLOUD_QUERY_LIMITS,
          tracer,
        );
        return new NewestRowsQueryLogReader(reader, async () => (await store.store()).newestRows);
      },
      [ClickHouseClientSource],
    );
    bind<ClickHouseEdgeLogWriter>(EdgeLogWriter).toResolvedValue(
      (source: ClickHouseClientSource) => new ClickHouseEdgeLogWriter(() => source.store(), tracer),
      [ClickHouseClientSource],
    );
    bind<QueryLogEraser>(QueryLogEraser).toResolvedValue(
      (source: ClickHouseClientSource) => new ClickHouseQueryLogEraser(() => source.store()),
      [ClickHouseClientSource],
    );
    bind<DeviceCounts>(DeviceCounts).toResolvedValue(
      (source: ClickHouseClientSource) =>
        new ClickHouseDeviceCounts(
          () => source.store(),
          (error) => log.warn(`device counts unavailable: ${errorMessage(error)}`),
        ),
      [ClickHouseClientSource],
    );
    bind<ColumnarQueryLog>(ColumnarQueryLog).toResolvedValue(
      (reader: QueryLogReader, writer: ClickHouseEdgeLogWriter) => ({
        reader,
        writer,
        simulated: new ClickHouseSimulatedLogWriter(writer),
      }),
      [QueryLogReader, EdgeLogWriter],
    );
  });
}

/** An operator's line about a failure: its message (the store's own words), never a stack. */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
