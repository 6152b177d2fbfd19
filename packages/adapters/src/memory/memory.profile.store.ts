import { isAfterKeyset, newestFirst, type ProfileRecord, type ProfileRepository } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/** Profiles of an engine-free server; rows are copied in and out, and snapshot for transaction rollback. */
export class MemoryProfileStore implements Snapshottable {
  private rows = new Map<string, ProfileRecord>();
  /** Profiles tombstoned by a pending account deletion: kept for restoring, found by no lookup. */
  private tombstoned = new Map<string, Date>();

  snapshot(): unknown {
    return structuredClone({ rows: this.rows, tombstoned: this.tombstoned });
  }

  restore(snapshot: unknown): void {
    const state = snapshot as { rows: Map<string, ProfileRecord>; tombstoned: Map<string, Date> };
    this.rows = state.rows;
    this.tombstoned = state.tombstoned;
  }

  /** Whether a profile of any organisation has this id (what a foreign key to profiles checks). */
  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** The organisation of a live (not tombstoned) profile of any organisation (operator routes). */
  orgOfLive(id: string): string | null {
    const row = this.rows.get(id);
    return row === undefined || this.tombstoned.has(id) ? null : row.orgId;
  }

  /** Live (not tombstoned) profiles of every organisation, copied (operator search). */
  live(): ProfileRecord[] {
    return [...this.rows.values()]
      .filter((row) => !this.tombstoned.has(row.id))
      .map((row) => structuredClone(row));
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
        return row === undefined || row.orgId !== orgId || this.tombstoned.has(id) ? null : copy(row);
      },
      save: async (profile) => {
        const row = this.rows.get(profile.id);
        if (row !== undefined && row.orgId === profile.orgId) this.rows.set(profile.id, copy(profile));
      },
      delete: async (orgId, id) => {
        const row = this.rows.get(id);
        if (row === undefined || row.orgId !== orgId || this.tombstoned.has(id)) return false;
        this.rows.delete(id);
        return true;
      },
      list: async (orgId, page) =>
        [...this.rows.values()]
          .filter(
            (row) => row.orgId === orgId && !this.tombstoned.has(row.id) && isAfterKeyset(row, page.after),
          )
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((row) => copy(row)),
      tombstoneAll: async (orgId, at) => {
        const marked: ProfileRecord[] = [];
        for (const row of this.rows.values()) {
          if (row.orgId !== orgId || this.tombstoned.has(row.id)) continue;
          this.tombstoned.set(row.id, at);
          row.version += 1;
          row.updatedAt = at;
          marked.push(copy(row));
        }
        return marked;
      },
      restoreAll: async (orgId, at) => {
        const restored: ProfileRecord[] = [];
        for (const row of this.rows.values()) {
          if (row.orgId !== orgId || !this.tombstoned.delete(row.id)) continue;
          row.version += 1;
          row.updatedAt = at;
          restored.push(copy(row));
        }
        return restored;
      },
      eraseAll: async (orgId) => {
        const erased: string[] = [];
        for (const row of [...this.rows.values()]) {
          if (row.orgId !== orgId) continue;
          this.rows.delete(row.id);
          this.tombstoned.delete(row.id);
          erased.push(row.id);
        }
        return erased;
      },
    };
  }
}
