import type { ClickHouseColumnarStore } from './clickhouse.columnar-store.js';

/**
 * The open ClickHouse store behind the bound columnar store, for the adapters that need its client (the log
 * reader, the edge writer, device counts, erasure). Bound by the ClickHouse family only, so a container
 * without it has no ClickHouse; opening it opens (and migrates) a lazily opened store.
 */
export const ClickHouseClientSource = Symbol.for('svc.ClickHouseClientSource');
export interface ClickHouseClientSource {
  store(): Promise<ClickHouseColumnarStore>;
}
