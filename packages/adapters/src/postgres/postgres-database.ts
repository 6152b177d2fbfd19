import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';

/** A pool on PostgreSQL (a server, or the embedded PGlite), and how to close it. */
export interface PostgresDatabase {
  pool: pg.Pool;
  /** `server` with DATABASE_URL, `embedded` for PGlite. */
  kind: 'server' | 'embedded';
  close(): Promise<void>;
}

/** Where the database is: a URL (DATABASE_URL), or a data dir for the embedded default. */
export type PostgresLocation = { url: string } | { dataDir: string };

/**
 * Opens the pool. A server gets a larger pool. Embedded PGlite gets one connection: PGlite runs one statement
 * at a time anyway, and with several connections pglite-socket interleaves their extended-protocol messages
 * under load (seen as "portal does not exist" and parameters bound with another statement's types), so
 * everything goes through one connection in order. Code inside a transaction must never wait for another
 * connection (it would wait for itself).
 */
export async function createPostgresDatabase(
  location: PostgresLocation,
  options: { max?: number } = {},
): Promise<PostgresDatabase> {
  if ('url' in location) {
    const pool = new pg.Pool({ connectionString: location.url, max: options.max ?? 20 });
    pool.on('error', () => undefined);
    return { pool, kind: 'server', close: () => pool.end() };
  }
  const embedded = await startEmbeddedPostgres(location.dataDir);
  const pool = new pg.Pool({ ...embedded.connection, max: options.max ?? 1 });
  // An idle client's error (the embedded server stopping) must not crash the process; queries still reject.
  pool.on('error', () => undefined);
  return {
    pool,
    kind: 'embedded',
    close: async () => {
      await pool.end();
      await embedded.stop();
    },
  };
}
