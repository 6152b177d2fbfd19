import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyPgliteTemplate } from './pglite-template.js';

/** Where `pg` reaches an embedded PGlite: `host` is the directory of its Unix socket. */
export interface EmbeddedPostgres {
  connection: { host: string; port: number; user: string; database: string };
  stop(): Promise<void>;
}

/**
 * The port in the socket's name: `pg`, like libpq, reaches `<host>/.s.PGSQL.<port>` when `host` is a directory.
 * Nothing listens on it.
 */
const SOCKET_PORT = 5432;
/** Longest Unix socket path every platform takes (macOS allows 104 bytes with the terminating zero). */
const MAX_SOCKET_PATH_BYTES = 103;

/** A directory only this user can enter, holding PGlite's socket, and how to clean it up. */
interface SocketDirectory {
  path: string;
  release(): Promise<void>;
}

/**
 * PGlite's wire protocol has no authentication, so it is never served on a TCP port (where anything on the
 * machine, or a request forgery against a local service, could connect and read every table): it listens on a
 * Unix socket in `<dataDir>/pg-socket`, a directory made owner-only even when it existed, so only the user that
 * runs the server can connect. A data dir whose path is too long for a socket path gets a private directory
 * under the system's temporary folder instead (mkdtemp makes it owner-only too).
 */
async function socketDirectory(dataDir: string): Promise<SocketDirectory> {
  const inDataDir = resolve(dataDir, 'pg-socket');
  if (Buffer.byteLength(join(inDataDir, `.s.PGSQL.${SOCKET_PORT}`)) <= MAX_SOCKET_PATH_BYTES) {
    await mkdir(inDataDir, { recursive: true, mode: 0o700 });
    await chmod(inDataDir, 0o700);
    return { path: inDataDir, release: async () => undefined };
  }
  const fallback = await mkdtemp(join(tmpdir(), 'svc-pg-'));
  return { path: fallback, release: () => rm(fallback, { recursive: true, force: true }) };
}

/** Removes a socket file a killed server left behind (the data dir's lock, the control socket, is free). */
async function removeStaleSocket(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * PostgreSQL's default `shared_buffers` (128 MB) lives in PGlite's WASM heap and is touched at start: about
 * resident memory that an embedded database of this size does not use (docs/benchmarks/2026-11-23-meta.md). The
 * data files stay in the OS page cache, so a miss costs a read from memory; deployments with large tables use a
 * PostgreSQL server (DATABASE_URL).
 */
const SHARED_BUFFERS = '32MB';

/** Runs in a child process: PGlite.create on an empty directory runs initdb, then the child exits. */
const INITDB_CHILD = `
const [dataDir, startParams] = process.argv.slice(1);
const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create(dataDir, { startParams: JSON.parse(startParams) });
await db.close();
`;

/**
 * Initialises an empty data directory in a child process. PGlite's initdb runs a second WASM instance and the
 * initdb module and copies the heap between its steps; in the server's own process most of that stays mapped
 * after it finishes, so it runs where exiting gives all of it back. The child resolves PGlite from this package's folder.
 */
function initialiseInChild(directory: string, startParams: readonly string[]): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', INITDB_CHILD, directory, JSON.stringify(startParams)],
      { cwd: dirname(fileURLToPath(import.meta.url)), maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error === null) done();
        else fail(new Error(`PGlite initdb in ${directory} failed: ${stderr.trim() || error.message}`));
      },
    );
  });
}

/**
 * Opens PGlite in `<dataDir>/pg` and serves it on an owner-only Unix socket (see {@link socketDirectory}), so
 * that the one `pg` adapter serves both the embedded default and a PostgreSQL server. PGlite runs one query at
 * a time and a transaction holds it: code inside a transaction must never wait for another connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  // Imported here, not with the module: a server on DATABASE_URL never loads PGlite.
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-socket'),
  ]);
  // The defaults include -F (fsync off): a commit reaches the data files (the page cache) before the answer,
  // so acknowledged writes survive a process kill, not a power loss (docs/operations.md, durability).
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`];
  const directory = resolve(dataDir, 'pg');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // A first start copies the committed data dir, migrated; initdb itself only runs when PGlite or a migration
  // changed without regenerating it.
  if (!existsSync(join(directory, 'PG_VERSION')) && !(await copyPgliteTemplate(directory)))
    await initialiseInChild(directory, startParams);
  const db = await PGlite.create(directory, { startParams });
  const sockets = await socketDirectory(dataDir);
  const path = join(sockets.path, `.s.PGSQL.${SOCKET_PORT}`);
  const server = new PGLiteSocketServer({ db, path, maxConnections: 32 });
  try {
    await removeStaleSocket(path);
    await server.start();
    await chmod(path, 0o600);
  } catch (error) {
    await server.stop();
    await db.close();
    await sockets.release();
    throw error;
  }
  return {
    connection: { host: sockets.path, port: SOCKET_PORT, user: 'postgres', database: 'postgres' },
    stop: async () => {
      await server.stop();
      await db.close();
      await removeStaleSocket(path);
      await sockets.release();
    },
  };
}
