import { isAfterKeyset, newestFirst, type ProfileRecord, type ProfileRepository } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/** Profiles of an engine-free server; rows are copied in and out, and snapshot for transaction rollback. */
export class MemoryProfileStore implements Snapshottable {
  private rows = new Map<string, ProfileRecord>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, ProfileRecord>;
  }

  /** Whether a profile of any organisation has this id (what a foreign key to profiles checks). */
  has(id: string): boolean {
    return this.rows.has(id);
  }

  repository(): ProfileRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    return {
      insert: async (profile) => {
        if (this.rows.has(profile.id)) return false;
        this.rows.set(profile.id, copy(profile));
        return true;
      },
      find: async (orgId, id) => {
        const row = this.rows.get(id);
        return row === undefined || row.orgId !== orgId ? null : copy(row);
      },
      save: async (profile) => {
        const row = this.rows.get(profile.id);
        if (row !== undefined && row.orgId === profile.orgId) this.rows.set(profile.id, copy(profile));
      },
      delete: async (orgId, id) => {
        const row = this.rows.get(id);
        if (row === undefined || row.orgId !== orgId) return false;
        this.rows.delete(id);
        return true;
      },
      list: async (orgId, page) =>
        [...this.rows.values()]
          .filter((row) => row.orgId === orgId && isAfterKeyset(row, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((row) => copy(row)),
    };
  }
}
