import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clickhouseMigrationFiles, migrateEmbeddedColumnarStore } from '@svc/adapters';
import { buildUnlessFresh } from './build-lock.js';

let template: Promise<string> | undefined;

/** The folder of an embedded columnar store with every migration applied, made once per migration set. */
async function migratedTemplate(): Promise<string> {
  const migrations = await clickhouseMigrationFiles();
  const key = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `svc-columnar-template-${key}`);
  await buildUnlessFresh(
    `columnar-${key}`,
    () => existsSync(folder),
    async () => {
      const scratch = mkdtempSync(join(tmpdir(), 'svc-columnar-template-'));
      await migrateEmbeddedColumnarStore(scratch);
      // Renamed whole, so that no file ever copies a half-migrated template.
      renameSync(scratch, folder);
    },
  );
  return folder;
}

/**
 * Gives a fresh data dir the embedded columnar store (`<dataDir>/ch`) of a migrated template, as the PGlite
 * template does for the relational store: a server starting on it then finds every migration applied and
 * starts no migration child (a process loading chdb) for it. Each of the suite's engine-backed servers would
 * otherwise migrate an empty store of its own; the template is made once, by whichever test file needs it
 * first, and named after the migrations, so that a changed migration makes a new one.
 */
export async function seedColumnarStore(dataDir: string): Promise<void> {
  template ??= migratedTemplate();
  const folder = await template;
  rmSync(join(dataDir, 'ch'), { recursive: true, force: true });
  cpSync(join(folder, 'ch'), join(dataDir, 'ch'), { recursive: true });
}
