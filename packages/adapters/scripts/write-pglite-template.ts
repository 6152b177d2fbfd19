import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import {
  installedPgliteVersion,
  migrationDigests,
  PGLITE_TEMPLATE_ARCHIVE,
  PGLITE_TEMPLATE_MANIFEST,
  type PgliteTemplateManifest,
} from '../src/postgres/pglite-template.js';
import { migratePostgres, postgresMigrationFiles } from '../src/postgres/postgres-migrate.js';

/**
 * `npm run pglite-template`: runs PGlite's initdb in a scratch directory, as a first start used to, applies the
 * Postgres migrations with the server's own migration runner (through pglite-socket and `pg`, as the server
 * applies them), and writes its `dumpDataDir()` tar, brotli-compressed, with a manifest naming the PGlite that
 * wrote it and the migrations it holds. Run it after changing the pinned @electric-sql/pglite version or the
 * migrations.
 *
 * Before the dump the WAL is switched to a fresh segment and checkpointed, with `wal_recycle` off so that the
 * segment initdb filled is removed rather than kept under a new name: the template's WAL is then one segment of
 * mostly zeros (written as holes on a first start) instead of 16 MB of initdb's records that no start replays.
 */
const scratch = await mkdtemp(join(tmpdir(), 'svc-pglite-template-'));
try {
  const db = await PGlite.create(join(scratch, 'pg'), {
    startParams: [...PGlite.defaultStartParams, '-c', 'wal_recycle=off'],
  });
  // On a Unix socket in the owner-only scratch directory, as the server serves it: never on a TCP port.
  const server = new PGLiteSocketServer({ db, path: join(scratch, '.s.PGSQL.5432') });
  await server.start();
  const pool = new pg.Pool({ host: scratch, port: 5432, user: 'postgres', database: 'postgres', max: 1 });
  try {
    await migratePostgres(pool);
    await pool.query('SELECT pg_switch_wal()');
    await pool.query('CHECKPOINT');
  } finally {
    await pool.end();
    await server.stop();
  }
  const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
  await db.close();
  const archive = await promisify(brotliCompress)(tar, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
    },
  });
  const manifest: PgliteTemplateManifest = {
    pglite: await installedPgliteVersion(),
    postgres: (await readFile(join(scratch, 'pg', 'PG_VERSION'), 'utf8')).trim(),
    migrations: migrationDigests(await postgresMigrationFiles()),
  };
  await writeFile(PGLITE_TEMPLATE_ARCHIVE, archive);
  await writeFile(PGLITE_TEMPLATE_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(
    `wrote ${PGLITE_TEMPLATE_ARCHIVE} (${(archive.length / 1e6).toFixed(2)} MB from a ${(tar.length / 1e6).toFixed(1)} MB tar) for PGlite ${manifest.pglite}, with ${Object.keys(manifest.migrations).length} migrations\n`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
