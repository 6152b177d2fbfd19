import {
  ClickHouseClientSource,
  createColumnarStore,
  LazyColumnarStore,
  migrateEmbeddedColumnarStore,
  ReadinessProbe,
} from '@svc/adapters';
import { ColumnarStore } from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { AdapterSettings } from './adapter-settings.js';
import type { Lifecycle } from './lifecycle.js';

/** The one lazily opened store behind the three identifiers the family binds. */
const LazyColumnarStoreToken = Symbol.for('svc.LazyColumnarStore');

/**
 * The ClickHouse family: the columnar store of query logs and analytics (CLICKHOUSE_URL, else the embedded chdb
 * in the data dir), its client for the adapters that read and write it ({@link ClickHouseClientSource}), and its
 * readiness probe. The store opens on first use: the embedded chdb alone is over a hundred MB of resident
 * memory, and no route reads the store before query logs and analytics do. Migrations of the embedded store run
 * in a short-lived child process until then, so serve still applies them at start (RUNNER.md) without loading
 * chdb here.
 */
export function clickhouseModule(
  settings: AdapterSettings['storage'],
  lifecycle: Lifecycle,
): ContainerModule {
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
    bind<ReadinessProbe>(ReadinessProbe).toResolvedValue(
      (store: LazyColumnarStore): ReadinessProbe => ({
        dependency: 'columnar',
        isOpen: () => store.isOpen,
        ping: () => store.ping(),
      }),
      [LazyColumnarStoreToken],
    );
  });
}
