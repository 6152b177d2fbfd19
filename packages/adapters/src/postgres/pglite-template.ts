import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTar } from './extract-tar.js';
import { postgresMigrationFiles } from './postgres-migrate.js';

/**
 * A data dir as PGlite's initdb leaves it with the Postgres migrations applied, committed so that a first
 * start copies it instead of running initdb and every migration, seconds of CPU each (ADR 0008): PGlite's
 * `dumpDataDir()` tar, compressed with brotli. `npm run pglite-template` writes both files; tests fail when
 * the pinned PGlite differs from the one that wrote it or the repository's migrations from the ones it holds.
 */
const PGLITE_TEMPLATE_FOLDER = fileURLToPath(new URL('./pglite-template/', import.meta.url));
export const PGLITE_TEMPLATE_ARCHIVE = join(PGLITE_TEMPLATE_FOLDER, 'data-dir.tar.br');
export const PGLITE_TEMPLATE_MANIFEST = join(PGLITE_TEMPLATE_FOLDER, 'data-dir.json');

/**
 * Runs in a child process: writes the archive's tar to stdout. Brotli's 16 MB window and buffers stay in the
 * allocator of whichever process decompresses, so the server leaves that to a process that exits.
 */
const DECOMPRESS_CHILD = `
const { createReadStream } = require('node:fs');
const { pipeline } = require('node:stream');
const { createBrotliDecompress } = require('node:zlib');
// 1 MiB chunks: with the 16 KiB defaults the decompression took about twice as long.
pipeline(
  createReadStream(process.argv[1], { highWaterMark: 1 << 20 }),
  createBrotliDecompress({ chunkSize: 1 << 20 }),
  process.stdout,
  (error) => {
    if (error) {
      process.stderr.write(String(error.stack ?? error));
      process.exitCode = 1;
    }
  },
);
`;

/** Extracts the template archive, decompressed by a child process, into `directory`. */
async function extractTemplate(directory: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', DECOMPRESS_CHILD, PGLITE_TEMPLATE_ARCHIVE], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`decompressing ${PGLITE_TEMPLATE_ARCHIVE} failed: ${stderr.trim() || `exit ${code}`}`),
        );
    });
  });
  try {
    await Promise.all([extractTar(child.stdout, directory), exited]);
  } catch (error) {
    child.kill();
    throw error;
  }
}

/** What the committed template was made with. */
export interface PgliteTemplateManifest {
  /** The `@electric-sql/pglite` version whose initdb wrote the data dir. */
  pglite: string;
  /** The PostgreSQL major version of the data dir (its PG_VERSION). */
  postgres: string;
  /** The migrations applied in it (its schema_migrations rows): id → SHA-256 of the SQL file applied. */
  migrations: Record<string, string>;
}

/** The SHA-256 of each migration's SQL, by id: what a template records and is compared on. */
export function migrationDigests(files: readonly { id: string; sql: string }[]): Record<string, string> {
  return Object.fromEntries(
    files.map((file) => [file.id, createHash('sha256').update(file.sql).digest('hex')]),
  );
}

/**
 * Whether a first start may copy the template: written by the PGlite installed here, and holding only
 * migrations that the repository has with the same SQL. Migrations it does not hold apply on top at start,
 * as on any data dir; a template holding a migration changed or removed since would be another schema.
 */
export function templateFits(
  manifest: PgliteTemplateManifest,
  installedPglite: string,
  repositoryMigrations: Record<string, string>,
): boolean {
  if (manifest.pglite !== installedPglite) return false;
  return Object.entries(manifest.migrations).every(([id, digest]) => repositoryMigrations[id] === digest);
}

/** The version of the `@electric-sql/pglite` this package resolves (its package.json is not exported). */
export async function installedPgliteVersion(): Promise<string> {
  let folder = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  for (;;) {
    const manifest = join(folder, 'package.json');
    const text = await readFile(manifest, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text !== undefined) {
      const parsed = JSON.parse(text) as { name?: string; version?: string };
      if (parsed.name === '@electric-sql/pglite' && typeof parsed.version === 'string') return parsed.version;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error('the package.json of @electric-sql/pglite was not found');
    folder = parent;
  }
}

/** The committed template's manifest. */
export async function readPgliteTemplateManifest(): Promise<PgliteTemplateManifest> {
  return JSON.parse(await readFile(PGLITE_TEMPLATE_MANIFEST, 'utf8')) as PgliteTemplateManifest;
}

/**
 * Fills the empty `directory` from the committed template when it fits ({@link templateFits}), and says
 * whether it did; when not (a PGlite upgraded or a migration changed without regenerating it), the caller
 * runs initdb. The files are written beside it and renamed into place, so that a start stopped half-way never
 * leaves a PG_VERSION in front of a partial data dir; a start after that one removes the partial copy and
 * copies again.
 */
export async function copyPgliteTemplate(directory: string): Promise<boolean> {
  const [manifest, installed, files] = await Promise.all([
    readPgliteTemplateManifest(),
    installedPgliteVersion(),
    postgresMigrationFiles(),
  ]);
  if (!templateFits(manifest, installed, migrationDigests(files))) return false;
  const partial = `${directory}.partial`;
  await rm(partial, { recursive: true, force: true });
  await extractTemplate(partial);
  await rename(partial, directory);
  return true;
}
