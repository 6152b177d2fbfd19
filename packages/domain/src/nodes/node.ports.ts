import type { KeysetPage } from '../pagination/keyset.js';
import type { NodeRecord } from './node.records.js';

/**
 * Nodes inside a transaction. Owner-side lookups take the organisation, so another organisation's node is
 * simply not found; node-side lookups go by the keyed hash of a presented secret.
 */
export interface NodeRepository {
  insert(node: NodeRecord): Promise<void>;
  /** The node of the organisation's profile. */
  find(orgId: string, profileId: string, id: string): Promise<NodeRecord | null>;
  /** The node by id alone (node-side requests, after the token named it). */
  findById(id: string, options?: { forUpdate?: boolean }): Promise<NodeRecord | null>;
  /** The node whose enrolment code hashes to `lookup`; with `forUpdate`, locked until the transaction ends. */
  findByEnrolmentLookup(lookup: string, options?: { forUpdate?: boolean }): Promise<NodeRecord | null>;
  /** The node whose current or previous token hashes to `lookup`. */
  findByTokenLookup(lookup: string, options?: { forUpdate?: boolean }): Promise<NodeRecord | null>;
  /** Writes every field of a node found in this transaction. */
  save(node: NodeRecord): Promise<void>;
  /** The profile's nodes, newest first, after the keyset position. */
  list(orgId: string, profileId: string, page: KeysetPage): Promise<NodeRecord[]>;
  /** Revokes every node of the organisation not revoked yet (account deletion); returns their ids. */
  revokeAll(orgId: string, at: Date): Promise<string[]>;
  /** How many of the profile's nodes are enrolled (a profile with any cannot be deleted). */
  countEnrolled(profileId: string): Promise<number>;
  /**
   * Records when the node was last heard from (requests, link open and close, heartbeats) and, from a link's
   * hello, the software version and shapes it reports.
   */
  touch(id: string, at: Date, software?: { version: string; shapes: string[] }): Promise<void>;
}

/** Node reads and the last-seen mark outside a transaction. */
export const NodeStore = Symbol.for('svc.NodeStore');
export type NodeStore = Pick<NodeRepository, 'find' | 'findById' | 'findByTokenLookup' | 'list' | 'touch'>;
