import type { HeldLogRow } from './node-link.protocol.js';
import type { NodeLogRow } from './node-log-row.js';

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
