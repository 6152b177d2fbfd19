import {
  isAfterKeyset,
  type NodeRecord,
  type NodeRepository,
  newestFirst,
  type ProfileRepository,
} from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * Nodes of an engine-free server: rows are copied in and out and snapshot for transaction rollback; a
 * profile's deletion removes its nodes, as ON DELETE CASCADE does in Postgres.
 */
export class MemoryNodeStore implements Snapshottable {
  private rows = new Map<string, NodeRecord>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, NodeRecord>;
  }

  /** `profiles` whose deletions also remove the profile's nodes. */
  cascadingFrom(profiles: ProfileRepository): ProfileRepository {
    return {
      ...profiles,
      delete: async (orgId, id) => {
        const deleted = await profiles.delete(orgId, id);
        if (deleted) {
          for (const [nodeId, row] of this.rows) if (row.profileId === id) this.rows.delete(nodeId);
        }
        return deleted;
      },
    };
  }

  repository(): NodeRepository {
    const copy = <T>(value: T): T => structuredClone(value);
    const first = (match: (row: NodeRecord) => boolean) => {
      const row = [...this.rows.values()].find(match);
      return row === undefined ? null : copy(row);
    };
    return {
      insert: async (node) => {
        if (this.rows.has(node.id)) throw new Error(`node ${node.id} exists already`);
        this.rows.set(node.id, copy(node));
      },
      find: async (orgId, profileId, id) =>
        first((row) => row.id === id && row.orgId === orgId && row.profileId === profileId),
      findById: async (id) => first((row) => row.id === id),
      findByEnrolmentLookup: async (lookup) => first((row) => row.enrolmentLookup === lookup),
      findByTokenLookup: async (lookup) =>
        first((row) => row.tokenLookup === lookup || row.previousTokenLookup === lookup),
      save: async (node) => {
        if (this.rows.has(node.id)) this.rows.set(node.id, copy(node));
      },
      list: async (orgId, profileId, page) =>
        [...this.rows.values()]
          .filter(
            (row) => row.orgId === orgId && row.profileId === profileId && isAfterKeyset(row, page.after),
          )
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((row) => copy(row)),
      revokeAll: async (orgId, at) => {
        const revoked: string[] = [];
        for (const [id, row] of this.rows) {
          if (row.orgId !== orgId || row.state === 'revoked') continue;
          this.rows.set(id, { ...row, state: 'revoked', revokedAt: at });
          revoked.push(id);
        }
        return revoked;
      },
      countEnrolled: async (profileId) =>
        [...this.rows.values()].filter((row) => row.profileId === profileId && row.state === 'enrolled')
          .length,
      touch: async (id, at, software) => {
        const row = this.rows.get(id);
        if (row === undefined) return;
        const lastSeenAt = row.lastSeenAt === null || row.lastSeenAt < at ? at : row.lastSeenAt;
        this.rows.set(id, {
          ...row,
          lastSeenAt,
          ...(software === undefined
            ? {}
            : { softwareVersion: software.version, shapes: [...software.shapes] }),
        });
      },
    };
  }
}
