import {
  isAfterKeyset,
  type LinkedIpRecord,
  type LinkedIpRepository,
  type LinkedIpWriteResult,
  newestFirst,
  type ProfileRepository,
} from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * Linked IPs of an engine-free server: rows are copied in and out, snapshot for transaction rollback, and an
 * address is held by one link at most, as the Postgres unique index keeps it (memory runs are serial).
 */
export class MemoryLinkedIpStore implements Snapshottable {
  private rows = new Map<string, LinkedIpRecord>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, LinkedIpRecord>;
  }

  /** `profiles` whose deletions also remove the profile's links (ON DELETE CASCADE of the Postgres table). */
  cascadingFrom(profiles: ProfileRepository): ProfileRepository {
    return {
      ...profiles,
      delete: async (orgId, id) => {
        const deleted = await profiles.delete(orgId, id);
        if (deleted) {
          for (const [linkId, row] of this.rows) if (row.profileId === id) this.rows.delete(linkId);
        }
        return deleted;
      },
    };
  }

  repository(): LinkedIpRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    const taken = (ip: string | null, byId: string) =>
      ip !== null && [...this.rows.values()].some((row) => row.ip === ip && row.id !== byId);
    const byLookup = (ddnsLookup: string) =>
      [...this.rows.values()].find((row) => row.ddnsLookup === ddnsLookup);
    return {
      insert: async (link): Promise<LinkedIpWriteResult> => {
        if (taken(link.ip, link.id)) return 'ip_conflict';
        if (this.rows.has(link.id) || byLookup(link.ddnsLookup) !== undefined) {
          throw new Error(`linked IP ${link.id} or its DDNS token exists already`);
        }
        this.rows.set(link.id, copy(link));
        return 'written';
      },
      find: async (orgId, profileId, id) => {
        const row = this.rows.get(id);
        return row === undefined || row.orgId !== orgId || row.profileId !== profileId ? null : copy(row);
      },
      findByDdnsLookup: async (ddnsLookup) => {
        const row = byLookup(ddnsLookup);
        return row === undefined ? null : copy(row);
      },
      setIp: async (id, ip, at): Promise<LinkedIpWriteResult> => {
        if (taken(ip, id)) return 'ip_conflict';
        const row = this.rows.get(id);
        if (row !== undefined) this.rows.set(id, { ...row, ip, updatedAt: at });
        return 'written';
      },
      setDdnsToken: async (id, generation, ddnsLookup) => {
        const row = this.rows.get(id);
        if (row !== undefined) this.rows.set(id, { ...row, ddnsGeneration: generation, ddnsLookup });
      },
      delete: async (orgId, profileId, id) => {
        const row = this.rows.get(id);
        if (row === undefined || row.orgId !== orgId || row.profileId !== profileId) return false;
        this.rows.delete(id);
        return true;
      },
      list: async (orgId, profileId, page) =>
        [...this.rows.values()]
          .filter(
            (row) => row.orgId === orgId && row.profileId === profileId && isAfterKeyset(row, page.after),
          )
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((row) => copy(row)),
      addresses: async (profileId) =>
        [...this.rows.values()]
          .flatMap((row) => (row.profileId === profileId && row.ip !== null ? [row.ip] : []))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      countForCaps: async (orgId, profileId) => {
        const rows = [...this.rows.values()].filter((row) => row.orgId === orgId);
        return {
          profile: rows.filter((row) => row.profileId === profileId).length,
          organisation: rows.length,
        };
      },
    };
  }
}
