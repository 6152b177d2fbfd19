import { spawn } from 'node:child_process';
import { readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTar } from './extract-tar.js';

/**
 * A data dir as PGlite's initdb leaves it, committed so that a first start copies it instead of running
 * initdb (about 6 s of CPU): PGlite's `dumpDataDir()` tar, compressed with brotli (1.3 MB; gzip leaves
 * 4.5 MB). `npm run pglite-template` writes both files; a test fails when the pinned PGlite differs from the
 * one that wrote it.
 */
export const PGLITE_TEMPLATE_FOLDER = fileURLToPath(new URL('./pglite-template/', import.meta.url));
export const PGLITE_TEMPLATE_ARCHIVE = join(PGLITE_TEMPLATE_FOLDER, 'data-dir.tar.br');
export const PGLITE_TEMPLATE_MANIFEST = join(PGLITE_TEMPLATE_FOLDER, 'data-dir.json');

/**
 * Runs in a child process: writes the archive's tar to stdout. Brotli's 16 MB window and buffers stay in the
 * allocator of whichever process decompresses (measured: 21 MB of RSS kept after the stream ended), so the
 * server leaves that to a process that exits.
 */
const DECOMPRESS_CHILD = `
const { createReadStream } = require('node:fs');
const { pipeline } = require('node:stream');
const { createBrotliDecompress } = require('node:zlib');
pipeline(createReadStream(process.argv[1]), createBrotliDecompress(), process.stdout, (error) => {
  if (error) {
    process.stderr.write(String(error.stack ?? error));
    process.exitCode = 1;
  }
});
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
 * Fills the empty `directory` from the committed template when it was written by the PGlite installed here,
 * and says whether it did; when not (a PGlite upgraded without regenerating it), the caller runs initdb.
 * The files are written beside it and renamed into place, so that a start stopped half-way never leaves a
 * PG_VERSION in front of a partial data dir.
 */
export async function copyPgliteTemplate(directory: string): Promise<boolean> {
  const [manifest, installed] = await Promise.all([readPgliteTemplateManifest(), installedPgliteVersion()]);
  if (manifest.pglite !== installed) return false;
  const partial = `${directory}.partial`;
  await rm(partial, { recursive: true, force: true });
  await extractTemplate(partial);
  await rename(partial, directory);
  return true;
}
