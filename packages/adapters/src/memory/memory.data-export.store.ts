import { type DataExportRecord, type DataExportRepository, isAfterKeyset, newestFirst } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/** Records leave the store as copies, so a caller changing one never changes what is stored. */
const copy = <T>(value: T): T => structuredClone(value);

/** The repository's calls made for an account; the others are the export worker's. */
type AccountCall = 'create' | 'find' | 'list' | 'chunk' | 'eraseAll';

interface StoredExport {
  record: DataExportRecord;
  leaseUntil: Date | null;
  /** The archive's chunks by number; a stored chunk is never changed in place, only replaced. */
  chunks: Map<number, Uint8Array>;
}

/** Data exports of an engine-free server, with the same rules as the Postgres tables (memory runs are serial). */
export class MemoryDataExportStore implements Snapshottable {
  private rows = new Map<string, StoredExport>();

  /** Copies the records and the chunk maps, not the chunks: they are never changed in place. */
  snapshot(): unknown {
    return new Map(
      [...this.rows].map(([id, row]) => [
        id,
        { record: structuredClone(row.record), leaseUntil: row.leaseUntil, chunks: new Map(row.chunks) },
      ]),
    );
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, StoredExport>;
  }

  repository(): DataExportRepository {
    return { ...this.accountCalls(), ...this.workerCalls() };
  }

  private ofAccount(accountId: string, id: string): StoredExport | null {
    const row = this.rows.get(id);
    return row === undefined || row.record.accountId !== accountId ? null : row;
  }

  private pendingOf(id: string): StoredExport | null {
    const row = this.rows.get(id);
    return row === undefined || row.record.status !== 'pending' ? null : row;
  }

  /** The export being built under this claim, or null once another attempt took it over. */
  private claimedBy(claim: { id: string; attempt: number }): StoredExport | null {
    const row = this.pendingOf(claim.id);
    return row === null || row.record.attempts !== claim.attempt ? null : row;
  }

  /** What an account asks of its exports: create, read, download, erase. */
  private accountCalls(): Pick<DataExportRepository, AccountCall> {
    return {
      create: async (record) => {
        const pending = [...this.rows.values()].some(
          (row) => row.record.accountId === record.accountId && row.record.status === 'pending',
        );
        if (pending) return false;
        this.rows.set(record.id, { record: copy(record), leaseUntil: null, chunks: new Map() });
        return true;
      },
      find: async (accountId, id) => {
        const row = this.ofAccount(accountId, id);
        return row === null ? null : copy(row.record);
      },
      list: async (accountId, page) =>
        [...this.rows.values()]
          .map((row) => row.record)
          .filter((record) => record.accountId === accountId && isAfterKeyset(record, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map(copy),
      chunk: async (accountId, id, seq, now) => {
        const row = this.ofAccount(accountId, id);
        const live = row?.record.status === 'ready' && (row.record.expiresAt ?? now) > now;
        const bytes = live ? row?.chunks.get(seq) : undefined;
        return bytes === undefined ? null : Uint8Array.from(bytes);
      },
      eraseAll: async (accountId) => {
        let erased = 0;
        for (const [id, row] of this.rows) {
          if (row.record.accountId === accountId) {
            this.rows.delete(id);
            erased += 1;
          }
        }
        return erased;
      },
    };
  }

  /** What the export worker does: claim a pending export, write its chunks, complete or fail it, expire. */
  private workerCalls(): Omit<DataExportRepository, AccountCall> {
    return {
      claimPending: async (now, leaseUntil) => {
        const free = [...this.rows.values()]
          .filter((row) => row.record.status === 'pending' && (row.leaseUntil ?? now) <= now)
          .sort((a, b) => a.record.createdAt.getTime() - b.record.createdAt.getTime())[0];
        if (free === undefined) return null;
        free.leaseUntil = leaseUntil;
        free.record.attempts += 1;
        free.chunks = new Map();
        return copy(free.record);
      },
      writeChunk: async (claim, seq, bytes, leaseUntil) => {
        const row = this.claimedBy(claim);
        if (row === null) return false;
        row.chunks.set(seq, Uint8Array.from(bytes));
        row.leaseUntil = leaseUntil;
        return true;
      },
      complete: async (claim, archive, completedAt, expiresAt) => {
        const row = this.claimedBy(claim);
        if (row === null) return false;
        row.record = {
          ...row.record,
          status: 'ready',
          completedAt,
          expiresAt,
          sizeBytes: archive.sizeBytes,
          sha256: archive.sha256,
          chunkCount: archive.chunkCount,
        };
        for (const seq of row.chunks.keys()) if (seq >= archive.chunkCount) row.chunks.delete(seq);
        row.leaseUntil = null;
        return true;
      },
      fail: async (id, at) => {
        const row = this.pendingOf(id);
        if (row === null) return;
        row.record = { ...row.record, status: 'failed', completedAt: at };
        row.leaseUntil = null;
        row.chunks = new Map();
      },
      expireDue: async (now) => {
        let expired = 0;
        for (const row of this.rows.values()) {
          if (row.record.status === 'ready' && row.record.expiresAt !== null && row.record.expiresAt <= now) {
            row.record = { ...row.record, status: 'expired' };
            row.chunks = new Map();
            expired += 1;
          }
        }
        return expired;
      },
    };
  }
}
