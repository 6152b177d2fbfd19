import type { EdgeLogWriter, QueryLogReader } from '@svc/domain';
import type { SimulatedLogWriter } from '@svc/edge-simulator';

/** Service identifiers of the composition that are not domain ports. */

/** The {@link Lifecycle} that closes what the container opened. */
export const LifecycleToken = Symbol.for('svc.Lifecycle');
/** The PostgreSQL pool (a server or the embedded PGlite) of the engine-backed stores. */
export const PostgresToken = Symbol.for('svc.PostgresDatabase');

/** The cloud query log on a columnar store: its reader, the edge's and nodes' writer, and `svc simulate`'s. */
export interface ColumnarQueryLogPorts {
  reader: QueryLogReader;
  writer: EdgeLogWriter;
  simulated: SimulatedLogWriter;
}

/**
 * The cloud query log (spec 4.6), bound by every adapter family: the ClickHouse family's, or null in a family
 * that configures no columnar store (memory), where cloud logs answer 501 not_implemented, nodes' rows and
 * totals are not kept and `svc simulate` has nowhere to write.
 */
export const ColumnarQueryLog = Symbol.for('svc.ColumnarQueryLog');
export type ColumnarQueryLog = ColumnarQueryLogPorts | null;

/**
 * How the bound MessageBus reaches other API servers, bound by every family: `nats` carries messages between
 * the servers of a deployment (so that what one publishes reaches the links and caches of the others);
 * `in_process` is this process's own.
 */
export const BusTransport = Symbol.for('svc.BusTransport');
export type BusTransport = 'nats' | 'in_process';

/**
 * The migrations of one store a family keeps, multi-bound (one per store; none where nothing outlives the
 * process, as in the memory family): applied by `migrateStores`.
 */
export const StoreMigrations = Symbol.for('svc.StoreMigrations');
export interface StoreMigrations {
  store: 'postgres' | 'columnar';
  /** Applies the pending migrations; answers their ids. */
  migrate(): Promise<string[]>;
}
