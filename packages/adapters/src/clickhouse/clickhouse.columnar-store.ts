import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import type { ColumnarStore } from '@svc/domain';
import { createChdbConnection } from 'chdb/connection';

/** The folder of ClickHouse migrations, next to this module in the sources and copied beside the bundle. */
const MIGRATIONS = new URL('./clickhouse-migrations/', import.meta.url);
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
    return applied;
  }

  async ping(): Promise<boolean> {
    const result = await this.client.query({ query: 'SELECT 1 AS ok', format: 'JSONEachRow' });
    return (await result.json<{ ok: number }>())[0]?.ok === 1;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>;

/**
 * chdb declares its connection against `@clickhouse/client-common`, while `@clickhouse/client` 1.23 ships its
 * own copy of the same declarations: identical at run time (the embedded tests exercise it), two types to
 * TypeScript. This is the one place that bridges them.
 */
function chdbConnection(path: string): ClientConnection {
  return createChdbConnection({ path }) as unknown as ClientConnection;
}

/** Opens the store the settings choose. chdb keeps one data path per process: open it once. */
export async function createColumnarStore(options: {
  url?: string | undefined;
  dataDir: string;
}): Promise<ClickHouseColumnarStore> {
  if (options.url !== undefined) {
    return new ClickHouseColumnarStore(createClient({ url: options.url, request_timeout: 30_000 }), 'server');
  }
  const path = join(options.dataDir, 'ch');
  await mkdir(path, { recursive: true, mode: 0o700 });
  return new ClickHouseColumnarStore(createClient({ connection: chdbConnection(path) }), 'embedded');
}
