import type { AuditAction, AuditSource } from '../audit/audit.ports.js';
import type { EcsOperatorCap } from '../ecs/ecs.js';
import { assertEmailVerified } from '../identity/email-verification.js';
import type { AccountRecord } from '../identity/identity.records.js';
import { newApiTokenSecret, newOpaqueToken } from '../identity/secrets.js';
import type { ListArtifactStore, ListVersionRecord } from '../lists/list-pipeline.ports.js';
import {
  type NodeListArtifact,
  nodeListManifest,
  profileListSelection,
  type SelectedList,
} from '../lists/profile-list-selection.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { ProfileStore } from '../profiles/profile.ports.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import { assertWritable } from '../profiles/profile.service.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { NodeScope, NodeStore } from './node.ports.js';
import type { NodeRecord } from './node.records.js';
import {
  NODE_TOKEN_GRACE_SECONDS,
  type Node,
  type NodeCreate,
  type NodeEnrol,
  type NodeProfileDocument,
  type NodeProfileLists,
  type NodeTokenRotated,
  type ProfilePublicKey,
} from './node.schemas.js';
import { NODE_REVOKED_SUBJECT, type NodePresence } from './node-presence.ports.js';
import { nodeDocumentSequence, nodeListsDigest, nodeProfileDocument } from './node-profile-document.js';
import type { ProfileSigner } from './profile-signer.ports.js';

/** Keyed-hash purposes of node secrets: one key each, so a hash never stands in for another secret. */
export const NodeSecretPurpose = { enrolment: 'node-enrolment-code', token: 'node-token' } as const;

/** How long an enrolment code works if unused: a day to install and start a node, not a standing credential. */
export const ENROLMENT_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How often at most a node's last-seen mark is written by its requests (links write it themselves). */
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

/** A node token: `svcnode_` and 52 alphanumerics (spec 5.1), drawn like an API token. */
export const NODE_TOKEN_PATTERN = /^svcnode_[A-Za-z0-9]{52}$/;
/** An enrolment code: `svcenrol_` and 32 random bytes in base64url. */
const ENROLMENT_CODE_PATTERN = /^svcenrol_[A-Za-z0-9_-]{43}$/;

/** A node token presented by a request and found live. */
export interface AuthenticatedNode {
  node: NodeRecord;
  /** True when the token is the one a rotation replaced, still in its grace. */
  viaPreviousToken: boolean;
}

/** What the node use cases are built from. */
export interface NodeDependencies {
  uow: ScopedUnitOfWork<NodeScope>;
  profileStore: ProfileStore;
  store: NodeStore;
  random: Random;
  clock: Clock;
  cursors: CursorSealer;
  keyedHash: KeyedHash;
  signer: ProfileSigner;
  presence: NodePresence;
  /** `{base_url}` of the spec, for `lists.url`. */
  baseUrl: string;
  /** The operator's ECS cap, carried in profile documents as the edge's are (default: no cap). */
  ecsOperatorCap?: EcsOperatorCap;
  /** The compiled lists: each list's newest version (derived ones compiled when missing), and their artifacts. */
  lists: {
    versionsFor(selection: readonly SelectedList[]): Promise<ReadonlyMap<number, ListVersionRecord>>;
    artifacts: Pick<ListArtifactStore, 'openCompressed'>;
  };
}

/** A compiled list's artifact as a node downloads it: gzip-compressed as stored. */
export interface NodeListDownload {
  sha256: string;
  /** Uncompressed size. */
  size: number;
  compressedSize: number;
  chunks: AsyncIterable<Uint8Array>;
}

function newNodeToken(random: Random): string {
  return `svcnode_${newApiTokenSecret(random).slice('svc_'.length)}`;
}

/**
 * Self-hosted nodes (spec 1.3, 3, 4.13, 5.1): created by a profile's owner with a one-time enrolment code,
 * enrolled by a node that exchanges the code for a `svcnode_` token, token rotation with a 600 s grace, and
 * revocation by either side. Creating and revoking nodes changes nothing the edge sees: the profile's version
 * stays, but new nodes are refused on a suspended profile (409 profile_suspended).
 */
export class NodeService {
  constructor(private readonly deps: NodeDependencies) {}

  /** The public record of a stored node. */
  view(record: NodeRecord): Node {
    return {
      id: record.id,
      profile_id: record.profileId,
      name: record.name,
      state: record.state,
      version: record.softwareVersion,
      shapes: record.shapes,
      connected: record.state === 'enrolled' && this.deps.presence.isConnected(record.id),
      last_seen_at: record.lastSeenAt?.toISOString() ?? null,
      enrolment_expires_at: record.enrolmentExpiresAt.toISOString(),
      enrolled_at: record.enrolledAt?.toISOString() ?? null,
      token_rotated_at: record.tokenRotatedAt?.toISOString() ?? null,
      revoked_at: record.revokedAt?.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      operator_files: {
        operator_blocks: record.operatorFiles?.operator_blocks ?? null,
        operator_sources: record.operatorFiles?.operator_sources ?? null,
      },
    };
  }

  /** The signing keys to announce, the signing key first. */
  profileKeys(): ProfilePublicKey[] {
    return this.deps.signer
      .keys()
      .map((key) => ({ key_id: key.keyId, algorithm: 'Ed25519', public_key: key.publicKey }));
  }

  async list(
    orgId: string,
    profileId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ nodes: NodeRecord[]; next_cursor: string | null }> {
    if ((await this.deps.profileStore.find(orgId, profileId)) === null) throw notFound('profile');
    const page = await pageNewestFirst(this.deps.cursors, `nodes:${profileId}`, limit, cursor, (keyset) =>
      this.deps.store.list(orgId, profileId, keyset),
    );
    return { nodes: page.items, next_cursor: page.nextCursor };
  }

  async get(orgId: string, profileId: string, nodeId: string): Promise<NodeRecord> {
    const node = await this.deps.store.find(orgId, profileId, nodeId);
    if (node === null) throw notFound('node');
    return node;
  }

  /**
   * POST /v1/profiles/{id}/nodes: a pending node and its one-time enrolment code (shown once). The code
   * becomes a lasting node credential, so the acting account needs a verified address (403 email_unverified).
   */
  async create(
    account: Pick<AccountRecord, 'orgId' | 'emailVerifiedAt'>,
    profileId: string,
    request: NodeCreate,
    source: AuditSource,
  ): Promise<{ node: NodeRecord; enrolmentCode: string }> {
    assertEmailVerified(account);
    const { orgId } = account;
    const code = newOpaqueToken(this.deps.random, 'svcenrol_');
    return this.deps.uow.run(async (tx) => {
      const profile = await tx.profiles.find(orgId, profileId, { forUpdate: true });
      if (profile === null) throw notFound('profile');
      assertWritable(profile);
      const now = this.deps.clock.now();
      const node: NodeRecord = {
        id: this.deps.random.uuid(),
        orgId,
        profileId,
        name: request.name,
        state: 'pending',
        enrolmentLookup: this.deps.keyedHash.mac(NodeSecretPurpose.enrolment, code),
        enrolmentExpiresAt: new Date(now.getTime() + ENROLMENT_CODE_LIFETIME_MS),
        tokenLookup: null,
        previousTokenLookup: null,
        previousValidUntil: null,
        tokenRotatedAt: null,
        softwareVersion: null,
        shapes: [],
        createdAt: now,
        enrolledAt: null,
        revokedAt: null,
        lastSeenAt: null,
      };
      await tx.nodes.insert(node);
      await this.audit(tx, node, 'node.created', source, { name: node.name });
      return { node, enrolmentCode: code };
    });
  }

  /** DELETE /v1/profiles/{id}/nodes/{nodeId} by the owner: revokes for good (again is a no-op). */
  async revoke(orgId: string, profileId: string, nodeId: string, source: AuditSource): Promise<void> {
    await this.deps.uow.run(async (tx) => {
      // Under the profile's lock: serialises with the profile's deletion and its empty check.
      if ((await tx.profiles.find(orgId, profileId, { forUpdate: true })) === null) throw notFound('profile');
      const node = await tx.nodes.find(orgId, profileId, nodeId);
      if (node === null) throw notFound('node');
      await this.revokeIn(tx, node, source);
    });
  }

  /** DELETE /v1/nodes/self: the node revokes itself. */
  async revokeSelf(nodeId: string, source: AuditSource): Promise<void> {
    await this.deps.uow.run(async (tx) => {
      const node = await tx.nodes.findById(nodeId);
      if (node === null) throw new DomainError('node_revoked', 'This node no longer exists.');
      await this.revokeIn(tx, node, source);
    });
  }

  /**
   * POST /v1/nodes/enrol: exchanges a one-time enrolment code for a node token. An unknown code is 400
   * invalid_token, a used one token_used, one past its 24 hours token_expired.
   */
  async enrol(
    request: NodeEnrol,
    source: Omit<AuditSource, 'actor'>,
  ): Promise<{ node: NodeRecord; nodeToken: string }> {
    if (!ENROLMENT_CODE_PATTERN.test(request.enrolment_code)) throw unknownCode();
    const lookup = this.deps.keyedHash.mac(NodeSecretPurpose.enrolment, request.enrolment_code);
    const token = newNodeToken(this.deps.random);
    return this.deps.uow.run(async (tx) => {
      const found = await tx.nodes.findByEnrolmentLookup(lookup, { forUpdate: true });
      if (found === null) throw unknownCode();
      if (found.state !== 'pending') {
        throw new DomainError('token_used', 'This enrolment code was used already; create another node.');
      }
      const now = this.deps.clock.now();
      if (now.getTime() >= found.enrolmentExpiresAt.getTime()) {
        throw new DomainError('token_expired', 'This enrolment code has expired; create another node.');
      }
      if ((await tx.profiles.find(found.orgId, found.profileId)) === null) throw unknownCode();
      const node: NodeRecord = {
        ...found,
        state: 'enrolled',
        tokenLookup: this.deps.keyedHash.mac(NodeSecretPurpose.token, token),
        softwareVersion: request.version ?? null,
        shapes: [...new Set(request.shapes ?? [])],
        enrolledAt: now,
        lastSeenAt: now,
      };
      await tx.nodes.save(node);
      await this.audit(
        tx,
        node,
        'node.enrolled',
        { ...source, actor: `node:${node.id}` },
        {
          version: node.softwareVersion,
        },
      );
      return { node, nodeToken: token };
    });
  }

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
      await this.audit(tx, rotated, 'node.token_rotated', source, {});
      return {
        node_token: token,
        previous_valid_s: NODE_TOKEN_GRACE_SECONDS,
        token_rotated_at: now.toISOString(),
      };
    });
  }

  /** GET /v1/nodes/self/profile: the node's profile document, signed when the server signs. */
  async profileDocument(node: NodeRecord): Promise<NodeProfileDocument> {
    const profile = await this.deps.profileStore.find(node.orgId, node.profileId);
    if (profile === null) throw revoked();
    return nodeProfileDocument(
      profile,
      { url: `${this.base()}/v1/nodes/self/lists`, artifacts: await this.manifestOf(profile) },
      nodeDocumentSequence(profile, this.deps.clock.now()),
      (data) => this.deps.keyedHash.sha256(data),
      this.deps.signer,
      this.deps.ecsOperatorCap,
    );
  }

  /** GET /v1/nodes/self/lists: the lists part of the node's profile document on its own. */
  async listManifest(node: NodeRecord): Promise<NodeProfileLists> {
    return (await this.profileDocument(node)).lists;
  }

  /**
   * The digest of the node's lists manifest (`lists.sha256`), for the link's welcome: a node whose applied
   * manifest has another digest fetches the document again.
   */
  async listsDigest(profile: ProfileRecord): Promise<string> {
    return nodeListsDigest(await this.manifestOf(profile), (data) => this.deps.keyedHash.sha256(data));
  }

  /**
   * GET /v1/nodes/self/lists/{sha256}: an artifact of the node's current manifest; 404 for any other (another
   * profile's list, an older version, an unknown digest).
   */
  async listArtifact(node: NodeRecord, sha256: string): Promise<NodeListDownload> {
    const profile = await this.deps.profileStore.find(node.orgId, node.profileId);
    if (profile === null) throw revoked();
    const entry = (await this.manifestOf(profile)).find((artifact) => artifact.sha256 === sha256);
    if (entry === undefined) throw notFound('list artifact');
    const stored = await this.deps.lists.artifacts.openCompressed(sha256);
    if (stored === null) throw notFound('list artifact');
    return { sha256, size: entry.size, compressedSize: stored.size, chunks: stored.chunks };
  }

  private base(): string {
    return this.deps.baseUrl.replace(/\/+$/, '');
  }

  private async manifestOf(profile: ProfileRecord): Promise<NodeListArtifact[]> {
    const selection = profileListSelection(profile, { forNodes: true });
    const versions = await this.deps.lists.versionsFor(selection);
    return nodeListManifest(selection, versions, (sha256) => `${this.base()}/v1/nodes/self/lists/${sha256}`);
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

  private async revokeIn(tx: NodeScope, node: NodeRecord, source: AuditSource): Promise<void> {
    if (node.state === 'revoked') return;
    const revokedNode: NodeRecord = { ...node, state: 'revoked', revokedAt: this.deps.clock.now() };
    await tx.nodes.save(revokedNode);
    await tx.outbox.enqueue({ subject: NODE_REVOKED_SUBJECT, payload: { node_id: node.id } });
    await this.audit(tx, revokedNode, 'node.revoked', source, { name: node.name });
  }

  private async audit(
    tx: NodeScope,
    node: NodeRecord,
    action: AuditAction,
    source: AuditSource,
    details: Record<string, unknown>,
  ): Promise<void> {
    await tx.audit.record({
      ...source,
      orgId: node.orgId,
      action,
      target: `profiles/${node.profileId}/nodes/${node.id}`,
      details,
      at: this.deps.clock.now(),
    });
  }
}

function unknownCode(): DomainError {
  return new DomainError('invalid_token', 'This enrolment code is not valid.');
}

function badToken(): DomainError {
  return new DomainError('unauthenticated', 'The node token is not valid.');
}

function revoked(): DomainError {
  return new DomainError('node_revoked', 'This node was revoked; enrol a new one.');
}
