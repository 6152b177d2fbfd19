import {
  isAfterKeyset,
  type LinkedIpRecord,
  type LinkedIpRepository,
  type LinkedIpWriteResult,
  newestFirst,
} from '@svc/domain';
import { MemoryProfileRows } from './memory-profile-rows.js';

/**
 * Linked IPs of an engine-free server: rows are copied in and out, snapshot for transaction rollback, and an
 * address is held by one active link at most, as the Postgres partial unique index keeps it (memory runs are
 * serial); pending claims of it may be many.
 */
export class MemoryLinkedIpStore extends MemoryProfileRows<LinkedIpRecord> {
  repository(): LinkedIpRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    const taken = (ip: string | null, byId: string) =>
      ip !== null &&
      [...this.rows.values()].some((row) => row.ip === ip && row.state === 'active' && row.id !== byId);
    const byLookup = (ddnsLookup: string) =>
      [...this.rows.values()].find((row) => row.ddnsLookup === ddnsLookup);
    return {
      insert: async (link): Promise<LinkedIpWriteResult> => {
        if (link.state === 'active' && taken(link.ip, link.id)) return 'ip_conflict';
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
        if (row !== undefined) this.rows.set(id, { ...row, ip, state: 'active', updatedAt: at });
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
          .flatMap((row) =>
            row.profileId === profileId && row.state === 'active' && row.ip !== null ? [row.ip] : [],
          )
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      listOfOrganisation: async (orgId) =>
        [...this.rows.values()].filter((row) => row.orgId === orgId).map((row) => copy(row)),
      deletePending: async (orgId, createdBefore) => {
        const doomed = [...this.rows.values()].filter(
          (row) =>
            row.orgId === orgId &&
            row.state === 'pending' &&
            row.ip !== null &&
            (createdBefore === undefined || row.createdAt < createdBefore),
        );
        for (const row of doomed) this.rows.delete(row.id);
        return doomed.length;
      },
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
