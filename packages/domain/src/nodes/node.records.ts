/**
 * Life of a node (spec 3): `pending` while its one-time enrolment code is unused, `enrolled` once a node
 * exchanged the code for a token, `revoked` for good (by the profile's owner or by the node itself).
 */
export type NodeState = 'pending' | 'enrolled' | 'revoked';

/** A self-hosted node of a profile as stored. Secrets are never stored, only keyed hashes of them. */
export interface NodeRecord {
  id: string;
  /** The owning profile's organisation, so that every owner-side lookup is bound to the caller's. */
  orgId: string;
  profileId: string;
  name: string;
  state: NodeState;
  /** Keyed hash of the enrolment code: how a presented code finds its node (kept after use: token_used). */
  enrolmentLookup: string;
  enrolmentExpiresAt: Date;
  /** Keyed hash of the current node token; null before enrolment. */
  tokenLookup: string | null;
  /** Keyed hash of the token replaced by the last rotation, in its grace; null when there is none. */
  previousTokenLookup: string | null;
  /**
   * End of the previous token's grace: null while the new token has not been used yet (the previous one
   * then still works), set to the first use of the new token plus 600 s (spec 3, 8).
   */
  previousValidUntil: Date | null;
  tokenRotatedAt: Date | null;
  /** The node software's version and the query shapes it answers, as it last reported them. */
  softwareVersion: string | null;
  shapes: string[];
  createdAt: Date;
  enrolledAt: Date | null;
  revokedAt: Date | null;
  lastSeenAt: Date | null;
  /** The version of each operator file the node acknowledged over its link; absent: none acknowledged. */
  operatorFiles?: Partial<Record<'operator_blocks' | 'operator_sources', number>>;
}
