import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip, gunzipSync } from 'node:zlib';
import type { StoredArtifact } from '@svc/domain';

/** Bytes of each stored chunk of compressed artifact. */
const ARTIFACT_CHUNK_BYTES = 1 << 20;

/** An artifact compressed for storage: its address and size, and the gzip bytes in chunks. */
export interface CompressedArtifact extends StoredArtifact {
  compressed: Buffer[];
  compressedSize: number;
}

/**
 * Compresses an artifact given chunk by chunk, hashing its (uncompressed) bytes on the way: what every
 * artifact store does before it stores. The compressed bytes are regrouped into chunks of
 * {@link ARTIFACT_CHUNK_BYTES}.
 */
export async function gzipArtifact(chunks: Iterable<Uint8Array>): Promise<CompressedArtifact> {
  const hash = createHash('sha256');
  let size = 0;
  const gzip = createGzip();
  const source = Readable.from(
    (function* () {
      for (const chunk of chunks) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    })(),
  );
  const compressed: Buffer[] = [];
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let compressedSize = 0;
  for await (const piece of source.pipe(gzip) as AsyncIterable<Buffer>) {
    pending.push(piece);
    pendingSize += piece.length;
    compressedSize += piece.length;
    if (pendingSize >= ARTIFACT_CHUNK_BYTES) {
      compressed.push(Buffer.concat(pending));
      pending = [];
      pendingSize = 0;
    }
  }
  if (pendingSize > 0) compressed.push(Buffer.concat(pending));
  return { sha256: hash.digest('hex'), size, compressed, compressedSize };
}

/** The artifact's bytes from its gzip chunks. */
export function gunzipArtifact(compressed: readonly Uint8Array[]): Uint8Array {
  return gunzipSync(Buffer.concat(compressed));
}
