import type { AuditSource } from '../audit/audit.ports.js';
import { assertEmailVerified } from '../identity/email-verification.js';
import type { AccountRecord } from '../identity/identity.records.js';
import { newOpaqueToken } from '../identity/secrets.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import { assertWritable } from '../profiles/profile.service.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { NodeScope } from './node.ports.js';
import type { NodeRecord } from './node.records.js';
import type {
  Node,
  NodeCreate,
  NodeEnrol,
  NodeProfileDocument,
  NodeProfileLists,
  NodeTokenRotated,
  ProfilePublicKey,
} from './node.schemas.js';
import {
  auditNode,
  ENROLMENT_CODE_LIFETIME_MS,
  ENROLMENT_CODE_PATTERN,
  NodeSecretPurpose,
  newNodeToken,
  unknownCode,
} from './node-credentials.js';
import { type NodeDocumentDependencies, NodeDocuments, type NodeListDownload } from './node-documents.js';
import { NODE_REVOKED_SUBJECT, type NodePresence } from './node-presence.ports.js';
import { type AuthenticatedNode, type NodeTokenDependencies, NodeTokens } from './node-tokens.js';

export { ENROLMENT_CODE_LIFETIME_MS, NODE_TOKEN_PATTERN, NodeSecretPurpose } from './node-credentials.js';
export type { NodeListDownload } from './node-documents.js';
export type { AuthenticatedNode } from './node-tokens.js';

/** What the node use cases are built from. */
export interface NodeDependencies extends NodeTokenDependencies, NodeDocumentDependencies {
  cursors: CursorSealer;
  presence: NodePresence;
}

/**
 * Self-hosted nodes (spec 1.3, 3, 4.13, 5.1): created by a profile's owner with a one-time enrolment code,
 * enrolled by a node that exchanges the code for a `svcnode_` token, token rotation with a 600 s grace
 * (node-tokens.ts), and revocation by either side; an enrolled node downloads its documents
 * (node-documents.ts). Creating and revoking nodes changes nothing the edge sees: the profile's version
 * stays, but new nodes are refused on a suspended profile (409 profile_suspended).
 */
export class NodeService {
  private readonly tokens: NodeTokens;
  private readonly documents: NodeDocuments;

  constructor(private readonly deps: NodeDependencies) {
    this.tokens = new NodeTokens(deps);
    this.documents = new NodeDocuments(deps);
  }

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
      await auditNode(tx, this.deps.clock, node, {
        action: 'node.created',
        source,
        details: { name: node.name },
      });
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
      await auditNode(tx, this.deps.clock, node, {
        action: 'node.enrolled',
        source: { ...source, actor: `node:${node.id}` },
        details: { version: node.softwareVersion },
      });
      await emitWebhookEvent(tx, this.deps, node.orgId, 'node.enrolled', {
        node_id: node.id,
        profile_id: node.profileId,
        name: node.name,
      });
      return { node, nodeToken: token };
    });
  }

  /** The node a presented `svcnode_` token names (see {@link NodeTokens.authenticate}). */
  authenticate(secret: string): Promise<AuthenticatedNode> {
    return this.tokens.authenticate(secret);
  }

  /** POST /v1/nodes/self/token (see {@link NodeTokens.rotate}). */
  rotate(authenticated: AuthenticatedNode, source: AuditSource): Promise<NodeTokenRotated> {
    return this.tokens.rotate(authenticated, source);
  }

  /** GET /v1/nodes/self/profile: the node's profile document, signed when the server signs. */
  profileDocument(node: NodeRecord): Promise<NodeProfileDocument> {
    return this.documents.profileDocument(node);
  }

  /** GET /v1/nodes/self/lists: the lists part of the node's profile document on its own. */
  async listManifest(node: NodeRecord): Promise<NodeProfileLists> {
    return (await this.documents.profileDocument(node)).lists;
  }

  /** The digest of the node's lists manifest, for the link's welcome (see {@link NodeDocuments.listsDigest}). */
  listsDigest(profile: ProfileRecord): Promise<string> {
    return this.documents.listsDigest(profile);
  }

  /** GET /v1/nodes/self/lists/{sha256}: an artifact of the node's current manifest (404 for any other). */
  listArtifact(node: NodeRecord, sha256: string): Promise<NodeListDownload> {
    return this.documents.listArtifact(node, sha256);
  }

  private async revokeIn(tx: NodeScope, node: NodeRecord, source: AuditSource): Promise<void> {
    if (node.state === 'revoked') return;
    const revokedNode: NodeRecord = { ...node, state: 'revoked', revokedAt: this.deps.clock.now() };
    await tx.nodes.save(revokedNode);
    await tx.outbox.enqueue({ subject: NODE_REVOKED_SUBJECT, payload: { node_id: node.id } });
    await auditNode(tx, this.deps.clock, revokedNode, {
      action: 'node.revoked',
      source,
      details: { name: node.name },
    });
  }
}
