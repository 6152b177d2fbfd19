import { isAfterKeyset, type ListReportRecord, type ListReportRepository, newestFirst } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * List reports of an engine-free server; rows are copied in and out and snapshot for transaction rollback.
 * Memory runs are serial, so counting an account's recent reports needs no lock.
 */
export class MemoryListReportStore implements Snapshottable {
  private rows = new Map<string, ListReportRecord>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, ListReportRecord>;
  }

  repository(): ListReportRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    return {
      insert: async (report) => {
        if (this.rows.has(report.id)) throw new Error(`list report ${report.id} exists already`);
        this.rows.set(report.id, copy(report));
      },
      recentByAccount: async (accountId, since, limit) =>
        [...this.rows.values()]
          .filter((row) => row.accountId === accountId && row.createdAt > since)
          .map((row) => new Date(row.createdAt))
          .sort((a, b) => b.getTime() - a.getTime())
          .slice(0, limit),
      list: async (orgId, profileId, page) =>
        [...this.rows.values()]
          .filter(
            (row) => row.orgId === orgId && row.profileId === profileId && isAfterKeyset(row, page.after),
          )
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((row) => copy(row)),
      triageQueue: async (status, page) =>
        [...this.rows.values()]
          .filter((row) => status === undefined || row.status === status)
          .filter((row) => page.after === null || triageOrder(row, page.after) > 0)
          .sort(triageOrder)
          .slice(0, page.limit)
          .map((row) => copy(row)),
      findForTriage: async (id) => {
        const row = this.rows.get(id);
        return row === undefined ? null : copy(row);
      },
      resolve: async (id, status, resolutionNote, at) => {
        const row = this.rows.get(id);
        if (row === undefined || row.status !== 'open') return false;
        this.rows.set(id, { ...row, status, resolutionNote, resolvedAt: new Date(at) });
        return true;
      },
    };
  }
}

/** The triage queue's order: due time, then creation time, then id (ListReportRepository.triageQueue). */
function triageOrder(
  a: Pick<ListReportRecord, 'triageDueAt' | 'createdAt' | 'id'>,
  b: Pick<ListReportRecord, 'triageDueAt' | 'createdAt' | 'id'>,
): number {
  return (
    a.triageDueAt.getTime() - b.triageDueAt.getTime() ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
