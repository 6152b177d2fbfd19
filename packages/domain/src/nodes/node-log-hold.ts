import type { ProfileRecord } from '../profiles/profile.records.js';
import type { QueryLogRow } from '../query-log/query-log-row.js';
import type { Clock } from '../shared/clock.port.js';
import type { HeldLogRow } from './node-link.protocol.js';
import { NODE_LINK_HEARTBEAT_SECONDS } from './node-link.protocol.js';
import { type NodeLogRow, nodeLogRowOf } from './node-log-row.js';

/**
 * The offline hold (spec 2.3 node_queue_hours) and the link state every API server reads it by: rows the cloud
 * edge recorded for a profile while none of its nodes was online, kept in order until a node of the profile
 * acknowledges them or they expire.
 */
export const NodeLogHoldStore = Symbol.for('svc.NodeLogHoldStore');
export interface NodeLogHoldStore {
  /** The profile's enrolled nodes, and how many hold an open link heard after `heardAfter`. */
  nodesOf(profileId: string, heardAfter: Date): Promise<{ enrolled: number; online: number }>;
  /**
   * Records the node's open link (its hello), which also counts as hearing it at `at` (as
   * NodeStore.linkSeen); a later link of the node replaces it.
   */
  linkOpened(nodeId: string, linkId: string, at: Date): Promise<void>;
  /** Records that the link closed, unless a newer link of the node replaced it meanwhile. */
  linkClosed(nodeId: string, linkId: string): Promise<void>;
  /** Appends rows in order, each kept until `expiresAt`. */
  hold(profileId: string, rows: readonly NodeLogRow[], heldAt: Date, expiresAt: Date): Promise<void>;
  /**
   * Claims for the link the profile's oldest unexpired rows nobody else claims (or whose claim ended), up to
   * `limit`, in seq order, each until `claimUntil`.
   */
  claim(profileId: string, linkId: string, now: Date, claimUntil: Date, limit: number): Promise<HeldLogRow[]>;
  /** Deletes the rows claimed by the link up to `seq` (acknowledged); returns how many. */
  release(profileId: string, linkId: string, seq: string): Promise<number>;
  /** Gives up the link's claims (it closed), so that the rows go to the next link. */
  unclaim(linkId: string): Promise<void>;
  /** Deletes up to `limit` rows expired at `now`; returns how many. */
  expire(now: Date, limit: number): Promise<number>;
  /** Of these profiles, those with unexpired rows nobody claims. */
  profilesHolding(profileIds: readonly string[], now: Date): Promise<string[]>;
}

/** A link not heard for three heartbeat intervals is gone even if no server recorded its close (a dead server). */
export const LINK_SILENCE_MS = 3 * NODE_LINK_HEARTBEAT_SECONDS * 1000;
const HOUR_MS = 3_600_000;

/**
 * Decides which edge rows are held for a profile's nodes and holds them (spec 2.3 node_queue_hours): rows of a
 * `self-hosted` or `both` profile that logs, while it has enrolled nodes and none of them is online, for
 * node_queue_hours hours from when they are held; 0 holds nothing.
 */
export class NodeLogHoldService {
  constructor(private readonly deps: { store: NodeLogHoldStore; clock: Clock }) {}

  /** Are the profile's edge rows to be held now? */
  async holdsFor(profile: ProfileRecord): Promise<boolean> {
    const { log_destination: destination, logs_enabled: logs, node_queue_hours: hours } = profile.settings;
    if (destination !== 'self-hosted' && destination !== 'both') return false;
    if (!logs || profile.suspended || hours <= 0) return false;
    const now = this.deps.clock.now();
    const nodes = await this.deps.store.nodesOf(profile.id, new Date(now.getTime() - LINK_SILENCE_MS));
    return nodes.enrolled > 0 && nodes.online === 0;
  }

  /** Holds rows the edge recorded for the profile (in the order given). */
  async hold(profile: ProfileRecord, rows: readonly QueryLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    const now = this.deps.clock.now();
    await this.deps.store.hold(
      profile.id,
      rows.map(nodeLogRowOf),
      now,
      new Date(now.getTime() + profile.settings.node_queue_hours * HOUR_MS),
    );
  }
}
