import {
  type DueNodeAlert,
  isAfterKeyset,
  type NodeRecord,
  type NodeRepository,
  newestFirst,
} from '@svc/domain';
import { MemoryProfileRows } from './memory-profile-rows.js';

interface NodeAlertState {
  linkSeenAt: Date | null;
  /** The node's open link, as its last hello named it (nodes.link_id in Postgres, 0017). */
  linkId?: string | null;
  offlineAlertedAt: Date | null;
  alertPairAt: Date | null;
}

/** The link state of a profile's nodes, as the offline hold reads and writes it. */
export interface MemoryNodeLinks {
  /** Each enrolled node of the profile: its open link and when a link of it was last heard. */
  enrolledOf(profileId: string): { linkId: string | null; linkSeenAt: Date | null }[];
  opened(nodeId: string, linkId: string, at: Date): void;
  closed(nodeId: string, linkId: string): void;
}

/**
 * Nodes of an engine-free server: rows are copied in and out and snapshot for transaction rollback; a
 * profile's deletion removes its nodes, as ON DELETE CASCADE does in Postgres.
 */
export class MemoryNodeStore extends MemoryProfileRows<NodeRecord> {
  /** Link sightings and alert state by node id (columns of the nodes table in Postgres, 0015). */
  private alerts = new Map<string, NodeAlertState>();

  override snapshot(): unknown {
    return { rows: super.snapshot(), alerts: structuredClone(this.alerts) };
  }

  override restore(snapshot: unknown): void {
    const state = snapshot as { rows: unknown; alerts: Map<string, NodeAlertState> };
    super.restore(state.rows);
    this.alerts = state.alerts;
  }

  private alertState(id: string): NodeAlertState {
    let state = this.alerts.get(id);
    if (state === undefined) {
      state = { linkSeenAt: null, offlineAlertedAt: null, alertPairAt: null };
      this.alerts.set(id, state);
    }
    return state;
  }

  /** The nodes' link state (the columns the Postgres offline hold updates on the nodes table). */
  links(): MemoryNodeLinks {
    return {
      enrolledOf: (profileId) =>
        [...this.rows.values()]
          .filter((row) => row.profileId === profileId && row.state === 'enrolled')
          .map((row) => {
            const state = this.alerts.get(row.id);
            return { linkId: state?.linkId ?? null, linkSeenAt: state?.linkSeenAt ?? null };
          }),
      opened: (nodeId, linkId, at) => {
        const row = this.rows.get(nodeId);
        if (row === undefined) return;
        const state = this.alertState(nodeId);
        state.linkId = linkId;
        if (state.linkSeenAt === null || state.linkSeenAt < at) state.linkSeenAt = new Date(at);
        if (row.lastSeenAt === null || row.lastSeenAt < at)
          this.rows.set(nodeId, { ...row, lastSeenAt: new Date(at) });
      },
      closed: (nodeId, linkId) => {
        const state = this.alerts.get(nodeId);
        if (state?.linkId === linkId) state.linkId = null;
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
      acknowledgeOperatorFile: async (id, file, version) => {
        const row = this.rows.get(id);
        if (row === undefined || (row.operatorFiles?.[file] ?? -1) >= version) return;
        this.rows.set(id, { ...row, operatorFiles: { ...row.operatorFiles, [file]: version } });
      },
      linkSeen: async (ids, at) => {
        for (const id of ids) {
          const row = this.rows.get(id);
          if (row === undefined) continue;
          const state = this.alertState(id);
          if (state.linkSeenAt === null || state.linkSeenAt < at) state.linkSeenAt = at;
          if (row.lastSeenAt === null || row.lastSeenAt < at) this.rows.set(id, { ...row, lastSeenAt: at });
        }
      },
      // Memory transactions run one at a time, so claimed rows need no lock.
      claimDueAlerts: async ({ offlineBefore, pairBefore }, limit) => {
        const due: DueNodeAlert[] = [];
        for (const row of this.rows.values()) {
          const state = this.alerts.get(row.id);
          if (row.state !== 'enrolled' || state?.linkSeenAt == null) continue;
          const offline = state.linkSeenAt <= offlineBefore;
          if (offline && state.offlineAlertedAt === null && (state.alertPairAt ?? pairBefore) <= pairBefore)
            due.push({ node: copy(row), kind: 'offline', linkSeenAt: state.linkSeenAt });
          else if (!offline && state.offlineAlertedAt !== null)
            due.push({ node: copy(row), kind: 'back', linkSeenAt: state.linkSeenAt });
          if (due.length >= limit) break;
        }
        return due;
      },
      recordAlert: async (id, kind, at) => {
        const state = this.alertState(id);
        if (kind === 'offline') {
          state.offlineAlertedAt = at;
          state.alertPairAt = at;
        } else state.offlineAlertedAt = null;
      },
    };
  }
}
