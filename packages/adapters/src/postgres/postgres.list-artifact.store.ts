import type { ListArtifactStore, StoredArtifact } from '@svc/domain';
import type pg from 'pg';
import { gunzipArtifact, gzipArtifact } from '../lists/gzip-artifact.js';

/**
 * List artifacts on PostgreSQL (0020_list_pipeline.sql) for servers sharing a database: the gzip bytes in
 * chunks of about a megabyte, stored once per address in one transaction (a concurrent store of the same
 * artifact is a no-op).
 */
export class PostgresListArtifactStore implements ListArtifactStore {
  constructor(private readonly db: pg.Pool) {}

  async put(chunks: Iterable<Uint8Array>): Promise<StoredArtifact> {
    const artifact = await gzipArtifact(chunks);
    const tx = await this.db.connect();
    try {
      await tx.query('BEGIN');
      const inserted = await tx.query(
        `INSERT INTO list_artifacts (sha256, size_bytes, compressed_bytes, chunk_count) VALUES ($1, $2, $3, $4)
         ON CONFLICT (sha256) DO NOTHING`,
        [artifact.sha256, artifact.size, artifact.compressedSize, artifact.compressed.length],
      );
      if (inserted.rowCount === 1) {
        for (const [seq, bytes] of artifact.compressed.entries()) {
          await tx.query('INSERT INTO list_artifact_chunks (sha256, seq, bytes) VALUES ($1, $2, $3)', [
            artifact.sha256,
            seq,
            bytes,
          ]);
        }
      }
      await tx.query('COMMIT');
    } catch (error) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      tx.release();
    }
    return { sha256: artifact.sha256, size: artifact.size };
  }

  async read(sha256: string): Promise<Uint8Array | null> {
    const stored = await this.db.query<{ chunk_count: number }>(
      'SELECT chunk_count FROM list_artifacts WHERE sha256 = $1',
      [sha256],
    );
    if (stored.rows[0] === undefined) return null;
    const chunks = await this.db.query<{ bytes: Buffer }>(
      'SELECT bytes FROM list_artifact_chunks WHERE sha256 = $1 ORDER BY seq',
      [sha256],
    );
    return gunzipArtifact(chunks.rows.map((row) => row.bytes));
  }

  async openCompressed(sha256: string): Promise<{ size: number; chunks: AsyncIterable<Uint8Array> } | null> {
    const stored = await this.db.query<{ compressed_bytes: string; chunk_count: number }>(
      'SELECT compressed_bytes, chunk_count FROM list_artifacts WHERE sha256 = $1',
      [sha256],
    );
    const row = stored.rows[0];
    if (row === undefined) return null;
    const db = this.db;
    return {
      size: Number(row.compressed_bytes),
      // One chunk a query: a download holds one chunk in memory at a time.
      chunks: (async function* () {
        for (let seq = 0; seq < row.chunk_count; seq += 1) {
          const chunk = await db.query<{ bytes: Buffer }>(
            'SELECT bytes FROM list_artifact_chunks WHERE sha256 = $1 AND seq = $2',
            [sha256, seq],
          );
          const bytes = chunk.rows[0]?.bytes;
          if (bytes === undefined) throw new Error(`chunk ${seq} of list artifact ${sha256} is missing`);
          yield bytes;
        }
      })(),
    };
  }
}
