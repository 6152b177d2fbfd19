import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/postgres/embedded-postgres.js';
import { extractTar } from '../src/postgres/extract-tar.js';
import { installedPgliteVersion, readPgliteTemplateManifest } from '../src/postgres/pglite-template.js';

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
