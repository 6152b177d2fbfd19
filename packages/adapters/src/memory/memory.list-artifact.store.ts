import type { ListArtifactStore, StoredArtifact } from '@svc/domain';
import { gunzipArtifact, gzipArtifact } from '../lists/gzip-artifact.js';

/** List artifacts in memory (the engine-free server and tests), compressed as the other stores keep them. */
export class MemoryListArtifactStore implements ListArtifactStore {
  private readonly artifacts = new Map<
    string,
    { size: number; compressed: Buffer[]; compressedSize: number }
  >();

  async put(chunks: Iterable<Uint8Array>): Promise<StoredArtifact> {
    const artifact = await gzipArtifact(chunks);
    if (!this.artifacts.has(artifact.sha256)) this.artifacts.set(artifact.sha256, artifact);
    return { sha256: artifact.sha256, size: artifact.size };
  }

  async read(sha256: string): Promise<Uint8Array | null> {
    const artifact = this.artifacts.get(sha256);
    return artifact === undefined ? null : gunzipArtifact(artifact.compressed);
  }

  async openCompressed(sha256: string): Promise<{ size: number; chunks: AsyncIterable<Uint8Array> } | null> {
    const artifact = this.artifacts.get(sha256);
    if (artifact === undefined) return null;
    const chunks = artifact.compressed;
    return {
      size: artifact.compressedSize,
      chunks: (async function* () {
        yield* chunks;
      })(),
    };
  }
}
