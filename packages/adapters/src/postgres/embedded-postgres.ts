import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Where `pg` reaches an embedded PGlite. */
export interface EmbeddedPostgres {
  connection: { host: string; port: number; user: string; database: string };
  stop(): Promise<void>;
}

/**
 * Opens PGlite in `<dataDir>/pg` and serves it on a loopback port, so that the one `pg` adapter serves both
 * the embedded default and a PostgreSQL server. PGlite runs one query at a time and a transaction holds it:
 * code inside a transaction must never wait for another connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const directory = join(dataDir, 'pg');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const db = await PGlite.create(directory);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const [host = '127.0.0.1', port = '0'] = server.getServerConn().split(':');
  return {
    connection: { host, port: Number(port), user: 'postgres', database: 'postgres' },
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
