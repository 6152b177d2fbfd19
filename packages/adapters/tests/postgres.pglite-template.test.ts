import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/postgres/embedded-postgres.js';
import { extractTar } from '../src/postgres/extract-tar.js';
import {
  installedPgliteVersion,
  migrationDigests,
  type PgliteTemplateManifest,
  readPgliteTemplateManifest,
  templateFits,
} from '../src/postgres/pglite-template.js';
import { createPostgresDatabase } from '../src/postgres/postgres-database.js';
import { migratePostgres, postgresMigrationFiles } from '../src/postgres/postgres-migrate.js';

const scratch: string[] = [];
afterEach(() => {
  for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function scratchDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'svc-pglite-template-'));
  scratch.push(folder);
  return folder;
}

/** One ustar header block, with the checksum left blank (the reader does not need it). */
function header(name: string, type: string, size = 0): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 'utf8');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  return block;
}
const end = Buffer.alloc(1024);

async function queryOnce(dataDir: string, sql: string): Promise<unknown[]> {
  const embedded = await startEmbeddedPostgres(dataDir);
  const client = new pg.Client(embedded.connection);
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
    await embedded.stop();
  }
}

describe('the PGlite data-dir template', () => {
  it('was written by the pinned @electric-sql/pglite', async () => {
    const [manifest, installed] = await Promise.all([readPgliteTemplateManifest(), installedPgliteVersion()]);
    expect(
      manifest.pglite,
      `packages/adapters/src/postgres/pglite-template was written by PGlite ${manifest.pglite} but ${installed} is installed: regenerate it with \`npm run pglite-template\``,
    ).toBe(installed);
  });

  it("holds the repository's Postgres migrations, each with the same SQL", async () => {
    const [manifest, files] = await Promise.all([readPgliteTemplateManifest(), postgresMigrationFiles()]);
    expect(
      manifest.migrations,
      'packages/adapters/src/postgres/pglite-template holds other migrations than postgres-migrations: regenerate it with `npm run pglite-template`',
    ).toEqual(migrationDigests(files));
  });

  it('fills an empty data dir on a first start (owner-only, nothing partial left) and reopens on a restart', async () => {
    const dataDir = scratchDir();
    const installed = await installedPgliteVersion();
    const [first] = (await queryOnce(dataDir, 'SELECT version() AS version')) as { version: string }[];
    expect(first?.version).toContain(`PGlite ${installed}`);
    expect(statSync(join(dataDir, 'pg')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'pg', 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dataDir, 'pg.partial'))).toBe(false);
    expect(await readFile(join(dataDir, 'pg', 'PG_VERSION'), 'utf8')).toBe(
      `${(await readPgliteTemplateManifest()).postgres}\n`,
    );
    await queryOnce(dataDir, 'CREATE TABLE kept (id int)');
    expect(await queryOnce(dataDir, "SELECT to_regclass('kept')::text AS kept")).toEqual([{ kept: 'kept' }]);
  }, 60_000);

  it('brings the migrated schema: a first start applies only the migrations the template does not hold', async () => {
    const dataDir = scratchDir();
    const [manifest, files] = await Promise.all([readPgliteTemplateManifest(), postgresMigrationFiles()]);
    const database = await createPostgresDatabase({ dataDir });
    try {
      const held = (await database.pool.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id'))
        .rows;
      expect(held.map((row) => row.id)).toEqual(Object.keys(manifest.migrations).sort());
      expect(await migratePostgres(database.pool)).toEqual(
        files.map((file) => file.id).filter((id) => !(id in manifest.migrations)),
      );
      expect(
        (await database.pool.query('SELECT name, version FROM operator_files ORDER BY name')).rows,
      ).toEqual([
        { name: 'operator_blocks', version: '0' },
        { name: 'operator_sources', version: '0' },
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('redoes a copy that a start stopped half-way left behind', async () => {
    const dataDir = scratchDir();
    // What a start killed while extracting leaves: an empty data dir and some of the files beside it.
    mkdirSync(join(dataDir, 'pg'), { recursive: true, mode: 0o700 });
    mkdirSync(join(dataDir, 'pg.partial', 'base', '5'), { recursive: true });
    writeFileSync(join(dataDir, 'pg.partial', 'base', '5', '1259'), 'torn');
    const [row] = (await queryOnce(dataDir, 'SELECT count(*)::int AS n FROM schema_migrations')) as {
      n: number;
    }[];
    expect(row?.n).toBe(Object.keys((await readPgliteTemplateManifest()).migrations).length);
    expect(existsSync(join(dataDir, 'pg.partial'))).toBe(false);
  }, 60_000);
});

describe(templateFits.name, () => {
  const manifest: PgliteTemplateManifest = {
    pglite: '0.5.14',
    postgres: '18',
    migrations: { '0001_a': 'aa', '0002_b': 'bb' },
  };

  it('fits when written by the installed PGlite and holding migrations the repository has unchanged', () => {
    expect(templateFits(manifest, '0.5.14', { '0001_a': 'aa', '0002_b': 'bb' })).toBe(true);
    // Newer migrations of the repository apply on top at start.
    expect(templateFits(manifest, '0.5.14', { '0001_a': 'aa', '0002_b': 'bb', '0003_c': 'cc' })).toBe(true);
  });

  it('does not fit another PGlite, a migration changed since, or one the repository no longer has', () => {
    expect(templateFits(manifest, '0.5.15', { '0001_a': 'aa', '0002_b': 'bb' })).toBe(false);
    expect(templateFits(manifest, '0.5.14', { '0001_a': 'aa', '0002_b': 'changed' })).toBe(false);
    expect(templateFits(manifest, '0.5.14', { '0001_a': 'aa' })).toBe(false);
  });
});

describe(extractTar.name, () => {
  it('writes directories and files, the entries named from the root as PGlite names them', async () => {
    const target = join(scratchDir(), 'out');
    const content = Buffer.from('18\n');
    const archive = Buffer.concat([
      header('/base', '5'),
      header('/base/PG_VERSION', '0', content.length),
      Buffer.concat([content, Buffer.alloc(512 - content.length)]),
      end,
    ]);
    // Split into small chunks so that headers and contents straddle them.
    const chunks = Array.from({ length: Math.ceil(archive.length / 100) }, (_, index) =>
      archive.subarray(index * 100, index * 100 + 100),
    );
    await extractTar(Readable.from(chunks), target);
    expect(await readFile(join(target, 'base', 'PG_VERSION'), 'utf8')).toBe('18\n');
  });

  it('leaves page-long runs of zeros as holes and reads back every byte, a trailing run included', async () => {
    const target = join(scratchDir(), 'out');
    const page = 8192;
    const content = Buffer.alloc(5 * page);
    content.write('head', 0);
    content.write('middle', 2 * page + 100);
    const trailing = Buffer.alloc(3 * page);
    trailing.write('start', 0);
    const padded = (bytes: Buffer) =>
      Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
    const archive = Buffer.concat([
      header('/pg_wal/segment', '0', content.length),
      padded(content),
      header('/pg_wal/trailing', '0', trailing.length),
      padded(trailing),
      end,
    ]);
    const chunks = Array.from({ length: Math.ceil(archive.length / 3000) }, (_, index) =>
      archive.subarray(index * 3000, index * 3000 + 3000),
    );
    await extractTar(Readable.from(chunks), target);
    expect((await readFile(join(target, 'pg_wal', 'segment'))).equals(content)).toBe(true);
    expect((await readFile(join(target, 'pg_wal', 'trailing'))).equals(trailing)).toBe(true);
    expect(statSync(join(target, 'pg_wal', 'segment')).mode & 0o777).toBe(0o600);
  });

  it('refuses an entry outside the directory, a link, and an archive cut short', async () => {
    const target = join(scratchDir(), 'out');
    await expect(extractTar(Readable.from([header('../escape', '0'), end]), target)).rejects.toThrow(
      'leaves',
    );
    await expect(extractTar(Readable.from([header('link', '2'), end]), target)).rejects.toThrow(
      'not a file or directory',
    );
    await expect(extractTar(Readable.from([header('cut', '0', 10)]), target)).rejects.toThrow('ends before');
  });
});
