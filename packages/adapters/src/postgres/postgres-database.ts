import pg from 'pg';
import type { StorageCallTracer } from '../tracing/storage-call-tracer.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { failoverClientClass, parsePostgresHosts } from './postgres-hosts.js';
import { traceClientQueries } from './postgres-traced-queries.js';
import { runStatementsUnnamed } from './postgres-unnamed-statements.js';

/** A pool on PostgreSQL (a server, or the embedded PGlite), and how to close it. */
export interface PostgresDatabase {
  pool: pg.Pool;
  /** `server` with DATABASE_URL, `embedded` for PGlite. */
  kind: 'server' | 'embedded';
  close(): Promise<void>;
}

/**
 * A connection lost while a client is checked out (a transaction in flight when the server restarts) is
 * emitted as an 'error' event after the query rejected; with no listener (the pool listens only to idle
 * clients) it would crash the process. The query's rejection carries it; the pool drops the broken client on
 * release.
 */
function survivesConnectionLoss(client: pg.PoolClient): void {
  client.on('error', () => undefined);
}

/** Where the database is: a URL (DATABASE_URL), or a data dir for the embedded default. */
export type PostgresLocation = { url: string } | { dataDir: string };

/**
 * Opens the pool. A server gets a larger pool. Embedded PGlite gets one connection: PGlite runs one statement
 * at a time anyway, and with several connections pglite-socket interleaves their extended-protocol messages
 * under load (seen as "portal does not exist" and parameters bound with another statement's types), so
 * everything goes through one connection in order. Code inside a transaction must never wait for another
 * connection (it would wait for itself). With `tracer`, every query of every connection is a span.
 */
export async function createPostgresDatabase(
  location: PostgresLocation,
  options: { max?: number; tracer?: StorageCallTracer } = {},
): Promise<PostgresDatabase> {
  const tracer = options.tracer;
  if ('url' in location) {
    // Pipelining lets a transaction's BEGIN and its first statement, or its last statement and COMMIT, share
    // a round trip (postgres-pipelining.ts). PGlite's socket serves one message exchange at a time: not there.
    const hosts = parsePostgresHosts(location.url);
    // Several hosts, or read-write asked for: each connection finds its host (a promoted standby included).
    const failover = hosts.hosts.length > 1 || hosts.targetSessionAttrs === 'read-write';
    const pool = new pg.Pool({
      connectionString: failover ? hosts.base : location.url,
      max: options.max ?? 20,
      pipeline: true,
      ...(failover ? { Client: failoverClientClass(hosts) } : {}),
    });
    pool.on('error', () => undefined);
    pool.on('connect', survivesConnectionLoss);
    if (tracer !== undefined) pool.on('connect', (client) => traceClientQueries(client, tracer));
    return { pool, kind: 'server', close: () => pool.end() };
  }
  const embedded = await startEmbeddedPostgres(location.dataDir);
  const pool = new pg.Pool({ ...embedded.connection, max: options.max ?? 1 });
  // An idle client's error (the embedded server stopping) must not crash the process; queries still reject.
  pool.on('error', () => undefined);
  pool.on('connect', survivesConnectionLoss);
  pool.on('connect', (client) => runStatementsUnnamed(client));
  if (tracer !== undefined) pool.on('connect', (client) => traceClientQueries(client, tracer));
  return {
    pool,
    kind: 'embedded',
    close: async () => {
      await pool.end();
      await embedded.stop();
    },
  };
}
