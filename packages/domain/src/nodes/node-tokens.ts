import type { AuditSource } from '../audit/audit.ports.js';
import type { ProfileStore } from '../profiles/profile.ports.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { NodeScope, NodeStore } from './node.ports.js';
import type { NodeRecord } from './node.records.js';
import { NODE_TOKEN_GRACE_SECONDS, type NodeTokenRotated } from './node.schemas.js';
import {
  auditNode,
  badToken,
  NODE_TOKEN_PATTERN,
  NodeSecretPurpose,
  newNodeToken,
  revoked,
} from './node-credentials.js';

/** How often at most a node's last-seen mark is written by its requests (links write it themselves). */
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

/** A node token presented by a request and found live. */
export interface AuthenticatedNode {
  node: NodeRecord;
  /** True when the token is the one a rotation replaced, still in its grace. */
  viaPreviousToken: boolean;
}

/** What node tokens are checked and rotated with. */
export interface NodeTokenDependencies {
  uow: ScopedUnitOfWork<NodeScope>;
  profileStore: ProfileStore;
  store: NodeStore;
  random: Random;
  clock: Clock;
  keyedHash: KeyedHash;
}

/**
 * A node's `svcnode_` token (spec 3, 5.1): found by its keyed hash, rotated with a 600 s grace for the token
 * it replaces, counted from the first request with the new one.
 */
export class NodeTokens {
  constructor(private readonly deps: NodeTokenDependencies) {}

  /**
   * The node a presented `svcnode_` token names. A revoked node's token is 401 node_revoked; an unknown token,
   * or a rotated one past its grace, 401 unauthenticated. The first request with a rotated-in token starts the
   * previous token's 600 s grace (spec 3).
   */
  async authenticate(secret: string): Promise<AuthenticatedNode> {
    if (!NODE_TOKEN_PATTERN.test(secret)) throw badToken();
    const lookup = this.deps.keyedHash.mac(NodeSecretPurpose.token, secret);
    const node = await this.deps.store.findByTokenLookup(lookup);
    if (node === null) throw badToken();
    if (node.state === 'revoked') throw revoked();
    // A profile tombstoned by an account deletion takes its nodes with it.
    if ((await this.deps.profileStore.find(node.orgId, node.profileId)) === null) throw revoked();
    const now = this.deps.clock.now();
    if (node.tokenLookup !== lookup) {
      if (node.previousValidUntil !== null && now.getTime() >= node.previousValidUntil.getTime()) {
        throw new DomainError(
          'unauthenticated',
          'This node token was replaced by a rotation and its grace has ended.',
        );
      }
      return { node, viaPreviousToken: true };
    }
    if (node.previousTokenLookup !== null && node.previousValidUntil === null) {
      return { node: await this.startGrace(node.id, lookup, now), viaPreviousToken: false };
    }
    if (
      node.lastSeenAt === null ||
      now.getTime() - node.lastSeenAt.getTime() >= LAST_SEEN_WRITE_INTERVAL_MS
    ) {
      await this.deps.store.touch(node.id, now);
      return { node: { ...node, lastSeenAt: now }, viaPreviousToken: false };
    }
    return { node, viaPreviousToken: false };
  }

  /**
   * POST /v1/nodes/self/token: a new token; the current one becomes the previous one, working until 600 s
   * after the first request with the new one. A rotation asked with a token already replaced is 409
   * node_token_superseded; a token replaced before that one stops at once.
   */
  async rotate(authenticated: AuthenticatedNode, source: AuditSource): Promise<NodeTokenRotated> {
    if (authenticated.viaPreviousToken) {
      throw new DomainError(
        'node_token_superseded',
        'This token was already replaced by a rotation; use the new token (this one stops 600 s after the new one is first used).',
      );
    }
    const token = newNodeToken(this.deps.random);
    return this.deps.uow.run(async (tx) => {
      const node = await tx.nodes.findById(authenticated.node.id, { forUpdate: true });
      if (node === null || node.state === 'revoked') throw revoked();
      if (node.tokenLookup !== authenticated.node.tokenLookup) {
        throw new DomainError('node_token_superseded', 'This token was replaced by a concurrent rotation.');
      }
      const now = this.deps.clock.now();
      const rotated: NodeRecord = {
        ...node,
        tokenLookup: this.deps.keyedHash.mac(NodeSecretPurpose.token, token),
        previousTokenLookup: node.tokenLookup,
        previousValidUntil: null,
        tokenRotatedAt: now,
      };
      await tx.nodes.save(rotated);
      await auditNode(tx, this.deps.clock, rotated, { action: 'node.token_rotated', source, details: {} });
      return {
        node_token: token,
        previous_valid_s: NODE_TOKEN_GRACE_SECONDS,
        token_rotated_at: now.toISOString(),
      };
    });
  }

  private async startGrace(nodeId: string, lookup: string, now: Date): Promise<NodeRecord> {
    return this.deps.uow.run(async (tx) => {
      const node = await tx.nodes.findById(nodeId, { forUpdate: true });
      if (node === null || node.state === 'revoked') throw revoked();
      if (node.tokenLookup !== lookup) throw badToken();
      if (node.previousValidUntil !== null) return node;
      const started: NodeRecord = {
        ...node,
        previousValidUntil: new Date(now.getTime() + NODE_TOKEN_GRACE_SECONDS * 1000),
        lastSeenAt: now,
      };
      await tx.nodes.save(started);
      return started;
    });
  }
}
