import type { AuditEntryRecord, AuditLogStore, AuditPageQuery, AuditWriter } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * The audit log of an engine-free server: appended in order and never changed; a failed transaction's entries
 * are dropped with its snapshot.
 */
export class MemoryAuditLog implements Snapshottable, AuditLogStore {
  private entries: AuditEntryRecord[] = [];
  private nextId = 1;

  snapshot(): unknown {
    return { entries: structuredClone(this.entries), nextId: this.nextId };
  }

  restore(snapshot: unknown): void {
    const state = snapshot as { entries: AuditEntryRecord[]; nextId: number };
    this.entries = state.entries;
    this.nextId = state.nextId;
  }

  writer(): AuditWriter {
    return {
      record: async (entry) => {
        this.entries.push({
          id: String(this.nextId++),
          orgId: entry.orgId,
          actor: entry.actor,
          action: entry.action,
          target: entry.target,
          details: structuredClone(entry.details),
          at: new Date(entry.at),
          clientIp: entry.clientIp ?? null,
          requestId: entry.requestId ?? null,
        });
      },
    };
  }

  async recent(orgId: string, limit: number): Promise<AuditEntryRecord[]> {
    return this.entries
      .filter((entry) => entry.orgId === orgId)
      .sort((a, b) => b.at.getTime() - a.at.getTime() || Number(b.id) - Number(a.id))
      .slice(0, limit)
      .map((entry) => structuredClone(entry));
  }

  async page(orgId: string, query: AuditPageQuery): Promise<AuditEntryRecord[]> {
    return this.pageAcrossOrganisations(orgId, query);
  }

  async pageAcrossOrganisations(orgId: string | null, query: AuditPageQuery): Promise<AuditEntryRecord[]> {
    const { after, actions } = query;
    return this.entries
      .filter((entry) => orgId === null || entry.orgId === orgId)
      .filter((entry) => actions.length === 0 || actions.includes(entry.action))
      .filter(
        (entry) =>
          after === null ||
          entry.at.getTime() < after.at.getTime() ||
          (entry.at.getTime() === after.at.getTime() && Number(entry.id) < Number(after.id)),
      )
      .sort((a, b) => b.at.getTime() - a.at.getTime() || Number(b.id) - Number(a.id))
      .slice(0, query.limit)
      .map((entry) => structuredClone(entry));
  }
}
