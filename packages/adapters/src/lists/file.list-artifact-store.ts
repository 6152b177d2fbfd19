import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ListArtifactStore, StoredArtifact } from '@svc/domain';
import { gunzipArtifact, gzipArtifact } from './gzip-artifact.js';

const ADDRESS = /^[0-9a-f]{64}$/;

/**
 * List artifacts as files of the data dir (the embedded default): `<dataDir>/lists/<sha256>.gz`, written
 * aside and renamed into place, so a file under its address is always whole. Two servers storing one
 * artifact write the same bytes.
 */
export class FileListArtifactStore implements ListArtifactStore {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, 'lists');
  }

  async put(chunks: Iterable<Uint8Array>): Promise<StoredArtifact> {
    const artifact = await gzipArtifact(chunks);
    const path = this.pathOf(artifact.sha256);
    if (!(await exists(path))) {
      await mkdir(this.folder, { recursive: true });
      const aside = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(aside, artifact.compressed);
      await rename(aside, path).catch(async (error: unknown) => {
        await rm(aside, { force: true });
        throw error;
      });
    }
    return { sha256: artifact.sha256, size: artifact.size };
  }

  async read(sha256: string): Promise<Uint8Array | null> {
    if (!ADDRESS.test(sha256)) return null;
    const bytes = await readFile(this.pathOf(sha256)).catch(notFoundAsNull);
    return bytes === null ? null : gunzipArtifact([bytes]);
  }

  async openCompressed(sha256: string): Promise<{ size: number; chunks: AsyncIterable<Uint8Array> } | null> {
    if (!ADDRESS.test(sha256)) return null;
    const path = this.pathOf(sha256);
    const facts = await stat(path).catch(notFoundAsNull);
    if (facts === null) return null;
    return { size: facts.size, chunks: createReadStream(path) };
  }

  private pathOf(sha256: string): string {
    return join(this.folder, `${sha256}.gz`);
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(notFoundAsNull)) !== null;
}

function notFoundAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}
