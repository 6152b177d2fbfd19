import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClickHouseClient, createClient } from '@clickhouse/client';
import type { ColumnarStore } from '@svc/domain';
import { ClickHouseReadPool } from './clickhouse.read-pool.js';
import { NewestRowsCache } from './newest-rows.cache.js';

/**
 * Connections the embedded store opens for log and analytics reads, besides the one that writes and migrates.
 * chdb runs one query at a time per connection, so with one a long analytics query held every tail behind it.
 * On separate connections a long query's execution runs beside other reads, while the fixed part of each
 * query (parsing, planning, opening parts) still takes turns inside the engine, so small reads do not get
 * faster in parallel; a connection costs little memory (docs/adr/0010-embedded-chdb-read-pool.md). A server
 * needs no more than its one HTTP client.
 */
const EMBEDDED_READ_CONNECTIONS = 4;

/** The folder of ClickHouse migrations, next to this module in the sources and copied beside the bundle. */
const MIGRATIONS = new URL('./clickhouse-migrations/', import.meta.url);
/**
 * A file in the embedded store's folder naming the migrations applied there, so that a server can tell at
 * start that none is pending without loading chdb. The store's own schema_migrations table stays the truth:
 * the file only lets a start skip asking it, and the store still migrates when it first opens.
 */
const APPLIED_FILE = 'svc-applied-migrations.json';
/** Separates statements within one migration file (ClickHouse runs one statement per request). */
const STATEMENT_MARKER = /^-- statement\s*$/m;

/** The migration files in name order, each split into its statements. */
export async function clickhouseMigrationFiles(): Promise<{ id: string; statements: string[] }[]> {
  const names = (await readdir(MIGRATIONS)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(new URL(name, MIGRATIONS), 'utf8');
      const statements = text
        .split(STATEMENT_MARKER)
        .map((statement) =>
          statement
            .replace(/^\s*--.*$/gm, '')
            .trim()
            .replace(/;\s*$/, ''),
        )
        .filter((statement) => statement.length > 0);
      return { id: name.replace(/\.sql$/, ''), statements };
    }),
  );
}

/**
 * The columnar store on `@clickhouse/client`: a ClickHouse server with CLICKHOUSE_URL, else chdb embedded in
 * this process (`<dataDir>/ch`). The same SQL runs on both.
 */
export class ClickHouseColumnarStore implements ColumnarStore {
  constructor(
    /** The client, for the contexts that query logs and analytics. */
    readonly client: ClickHouseClient,
    /** `server` or `embedded`. */
    readonly kind: 'server' | 'embedded',
    /**
     * The embedded store's folder, where the applied migrations are also written down (and bulk inserts
     * stage their files).
     */
    readonly embeddedPath?: string,
    /** The connections reads take turns on; the client alone unless the store opened more. */
    readonly reads: ClickHouseReadPool = ClickHouseReadPool.of(client),
    /**
     * The newest rows of profiles read lately (embedded only: this process is the store's one writer), kept by
     * the edge writer and the eraser and read by `NewestRowsQueryLogReader`.
     */
    readonly newestRows?: NewestRowsCache,
  ) {}

  async migrate(): Promise<string[]> {
    await this.client.command({
      query: `CREATE TABLE IF NOT EXISTS schema_migrations (id String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
              ENGINE = MergeTree ORDER BY id`,
    });
    const result = await this.client.query({
      query: 'SELECT id FROM schema_migrations',
      format: 'JSONEachRow',
    });
    const done = new Set((await result.json<{ id: string }>()).map((row) => row.id));
    const applied: string[] = [];
    for (const file of await clickhouseMigrationFiles()) {
      if (done.has(file.id)) continue;
      for (const statement of file.statements) await this.client.command({ query: statement });
      await this.client.insert({
        table: 'schema_migrations',
        values: [{ id: file.id }],
        format: 'JSONEachRow',
      });
      applied.push(file.id);
    }
    if (this.embeddedPath !== undefined) await recordApplied(this.embeddedPath, [...done, ...applied]);
    return applied;
  }

  async ping(): Promise<boolean> {
    const result = await this.client.query({ query: 'SELECT 1 AS ok', format: 'JSONEachRow' });
    return (await result.json<{ ok: number }>())[0]?.ok === 1;
  }

  async close(): Promise<void> {
    for (const connection of this.reads.connections) if (connection !== this.client) await connection.close();
    await this.client.close();
  }
}

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>;

/**
 * chdb declares its connection against `@clickhouse/client-common`, while `@clickhouse/client` 1.23 ships its
 * own copy of the same declarations: identical at run time (the embedded tests exercise it), two types to
 * TypeScript. This is the one place that bridges them. chdb is imported here, on first use, not with this
 * module: loading its library alone adds well over a hundred MB to the process's resident memory (ADR 0009).
 */
async function chdbConnection(path: string): Promise<ClientConnection> {
  const { createChdbConnection } = await import('chdb/connection');
  return createChdbConnection({ path }) as unknown as ClientConnection;
}

/** Opens the store the settings choose. chdb keeps one data path per process: open it once. */
export async function createColumnarStore(options: {
  url?: string | undefined;
  dataDir: string;
  /** Embedded only: connections opened for reads besides the main one (0 reads on the main one). */
  readConnections?: number;
}): Promise<ClickHouseColumnarStore> {
  // Imported on first use like chdb: a server whose columnar store is never opened does not load the client.
  const { createClient } = await import('@clickhouse/client');
  if (options.url !== undefined) {
    return new ClickHouseColumnarStore(createClient({ url: options.url, request_timeout: 30_000 }), 'server');
  }
  const path = join(options.dataDir, 'ch');
  await mkdir(path, { recursive: true, mode: 0o700 });
  const client = createClient({ connection: await chdbConnection(path) });
  const readers: ClickHouseClient[] = [];
  for (let index = 0; index < (options.readConnections ?? EMBEDDED_READ_CONNECTIONS); index += 1)
    readers.push(createClient({ connection: await chdbConnection(path) }));
  return new ClickHouseColumnarStore(
    client,
    'embedded',
    path,
    readers.length === 0 ? undefined : new ClickHouseReadPool(readers),
    new NewestRowsCache(),
  );
}

async function recordApplied(path: string, ids: string[]): Promise<void> {
  const file = join(path, APPLIED_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify([...new Set(ids)].sort()), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

/** The migrations the embedded store at `path` recorded as applied; none when it recorded nothing. */
async function recordedApplied(path: string): Promise<Set<string>> {
  try {
    const ids: unknown = JSON.parse(await readFile(join(path, APPLIED_FILE), 'utf8'));
    return new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : []);
  } catch (error) {
    // None written yet, or a torn write: ask the store itself (the child process) and write it anew.
    if (error instanceof SyntaxError) return new Set();
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return new Set();
    throw error;
  }
}

/**
 * Applies the migrations of the embedded store (`<dataDir>/ch`) in a child process that exits when done, so
 * that a server can migrate at start without keeping chdb in its own memory until something uses the store;
 * nothing at all runs when the store recorded every migration as applied. The child runs
 * `embedded-migration-child` beside this module (the source under tsx, or its bundle entry) and resolves
 * packages from its folder.
 */
export async function migrateEmbeddedColumnarStore(dataDir: string): Promise<string[]> {
  const recorded = await recordedApplied(join(dataDir, 'ch'));
  if ((await clickhouseMigrationFiles()).every((file) => recorded.has(file.id))) return [];
  const fromSources = import.meta.url.endsWith('.ts');
  const loader = fromSources ? ['--conditions=source', '--import', 'tsx'] : [];
  const child = fileURLToPath(
    new URL(`./embedded-migration-child.${fromSources ? 'ts' : 'js'}`, import.meta.url),
  );
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [...loader, child, resolve(dataDir)],
      { cwd: dirname(child), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          fail(new Error(`ClickHouse migrations of ${dataDir} failed: ${stderr.trim() || error.message}`));
          return;
        }
        done(JSON.parse(stdout) as string[]);
      },
    );
  });
}
