import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import {
  installedPgliteVersion,
  PGLITE_TEMPLATE_ARCHIVE,
  PGLITE_TEMPLATE_MANIFEST,
  type PgliteTemplateManifest,
} from '../src/postgres/pglite-template.js';

/**
 * `npm run pglite-template`: runs PGlite's initdb in a scratch directory, as a first start used to, and
 * writes its `dumpDataDir()` tar, brotli-compressed, with a manifest naming the PGlite that wrote it. Run it
 * after changing the pinned @electric-sql/pglite version.
 */
const scratch = await mkdtemp(join(tmpdir(), 'svc-pglite-template-'));
try {
  const db = await PGlite.create(join(scratch, 'pg'));
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
  };
  await writeFile(PGLITE_TEMPLATE_ARCHIVE, archive);
  await writeFile(PGLITE_TEMPLATE_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(
    `wrote ${PGLITE_TEMPLATE_ARCHIVE} (${(archive.length / 1e6).toFixed(2)} MB from a ${(tar.length / 1e6).toFixed(1)} MB tar) for PGlite ${manifest.pglite}\n`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
