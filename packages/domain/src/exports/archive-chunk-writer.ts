import type { DataExportArchiveSummary, RunningDigest } from './data-export.ports.js';

/** Stores one full chunk; false when the build lost its claim (nothing was stored). */
export type ChunkSink = (seq: number, bytes: Uint8Array) => Promise<boolean>;

/** The build's claim lapsed and another attempt owns the export: this build stops and writes nothing more. */
export class DataExportClaimLost extends Error {
  constructor(exportId: string) {
    super(`export ${exportId} was claimed again while it was being built`);
    this.name = 'DataExportClaimLost';
  }
}

/**
 * Cuts the archive into chunks of exactly `chunkBytes` (a line may span two) and hands each full chunk to the
 * sink as soon as more bytes follow it, so that at most one chunk is held. The last chunk, never empty, is
 * kept back for {@link finish}: the export turns ready in the transaction that stores it.
 */
export class ArchiveChunkWriter {
  private buffer: Uint8Array;
  private filled = 0;
  private seq = 0;
  private size = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly exportId: string,
    private readonly chunkBytes: number,
    private readonly digest: RunningDigest,
    private readonly sink: ChunkSink,
  ) {
    if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError('chunkBytes must be positive');
    this.buffer = new Uint8Array(chunkBytes);
  }

  /** Appends one line (a newline is added); throws {@link DataExportClaimLost} when the claim lapsed. */
  async writeLine(line: string): Promise<void> {
    const bytes = this.encoder.encode(`${line}\n`);
    let offset = 0;
    while (offset < bytes.length) {
      if (this.filled === this.chunkBytes) await this.flush();
      const taken = Math.min(this.chunkBytes - this.filled, bytes.length - offset);
      this.buffer.set(bytes.subarray(offset, offset + taken), this.filled);
      this.filled += taken;
      offset += taken;
    }
  }

  /** The last chunk with its number, and the summary of the whole archive. */
  finish(): { seq: number; bytes: Uint8Array; archive: DataExportArchiveSummary } {
    const bytes = this.buffer.subarray(0, this.filled);
    this.digest.update(bytes);
    this.size += bytes.length;
    return {
      seq: this.seq,
      bytes,
      archive: { chunkCount: this.seq + 1, sizeBytes: this.size, sha256: this.digest.hex() },
    };
  }

  private async flush(): Promise<void> {
    const full = this.buffer;
    if (!(await this.sink(this.seq, full))) throw new DataExportClaimLost(this.exportId);
    this.digest.update(full);
    this.size += full.length;
    this.seq += 1;
    // A fresh buffer: the stored chunk may still be referenced by the store that took it.
    this.buffer = new Uint8Array(this.chunkBytes);
    this.filled = 0;
  }
}
