import { type DataExportRecord, type DataExportRepository, isAfterKeyset, newestFirst } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

interface StoredExport {
  record: DataExportRecord;
  leaseUntil: Date | null;
  archive: string | null;
}

/** Data exports of an engine-free server, with the same rules as the Postgres table (memory runs are serial). */
export class MemoryDataExportStore implements Snapshottable {
  private rows = new Map<string, StoredExport>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, StoredExport>;
  }

  repository(): DataExportRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    const ofAccount = (accountId: string, id: string) => {
      const row = this.rows.get(id);
      return row === undefined || row.record.accountId !== accountId ? null : row;
    };
    const pendingOf = (id: string) => {
      const row = this.rows.get(id);
      return row === undefined || row.record.status !== 'pending' ? null : row;
    };
    return {
      create: async (record) => {
        const pending = [...this.rows.values()].some(
          (row) => row.record.accountId === record.accountId && row.record.status === 'pending',
        );
        if (pending) return false;
        this.rows.set(record.id, { record: copy(record), leaseUntil: null, archive: null });
        return true;
      },
      find: async (accountId, id) => {
        const row = ofAccount(accountId, id);
        return row === null ? null : copy(row.record);
      },
      list: async (accountId, page) =>
        [...this.rows.values()]
          .map((row) => row.record)
          .filter((record) => record.accountId === accountId && isAfterKeyset(record, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map(copy),
      claimPending: async (now, leaseUntil) => {
        const free = [...this.rows.values()]
          .filter((row) => row.record.status === 'pending' && (row.leaseUntil ?? now) <= now)
          .sort((a, b) => a.record.createdAt.getTime() - b.record.createdAt.getTime())[0];
        if (free === undefined) return null;
        free.leaseUntil = leaseUntil;
        free.record.attempts += 1;
        return copy(free.record);
      },
      complete: async (id, archive, completedAt, expiresAt) => {
        const row = pendingOf(id);
        if (row === null) return false;
        row.record = {
          ...row.record,
          status: 'ready',
          completedAt,
          expiresAt,
          sizeBytes: Buffer.byteLength(archive),
        };
        row.archive = archive;
        row.leaseUntil = null;
        return true;
      },
      fail: async (id, at) => {
        const row = pendingOf(id);
        if (row === null) return;
        row.record = { ...row.record, status: 'failed', completedAt: at };
        row.leaseUntil = null;
      },
      archive: async (accountId, id, now) => {
        const row = ofAccount(accountId, id);
        const live = row?.record.status === 'ready' && (row.record.expiresAt ?? now) > now;
        return live ? (row?.archive ?? null) : null;
      },
      expireDue: async (now) => {
        let expired = 0;
        for (const row of this.rows.values()) {
          if (row.record.status === 'ready' && row.record.expiresAt !== null && row.record.expiresAt <= now) {
            row.record = { ...row.record, status: 'expired' };
            row.archive = null;
            expired += 1;
          }
        }
        return expired;
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
}
