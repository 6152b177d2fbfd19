import type { AuditScope } from '../audit/audit.ports.js';
import type { AccountReadRepository } from '../identity/identity.ports.js';
import type { MailScope } from '../mail/mail-queue.ports.js';
import type { OutboxScope } from '../outbox/outbox.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type { PreferencesRepository } from '../preferences/preferences.ports.js';
import type { ProfileReadRepository } from '../profiles/profile.ports.js';
import type { WebhookEventScope } from '../webhooks/webhook.ports.js';
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
  /**
   * Records that the nodes' links were heard at `at` (a hello or heartbeat, or the links the API server holds
   * when its alert scheduler runs), which also counts as a sighting: how every server tells an online node
   * from an offline one.
   */
  linkSeen(ids: readonly string[], at: Date): Promise<void>;
  /** Records that the node applied `version` of an operator file (an older version than recorded is ignored). */
  acknowledgeOperatorFile(
    id: string,
    file: 'operator_blocks' | 'operator_sources',
    version: number,
  ): Promise<void>;
  /**
   * Enrolled nodes owing an alert, locked until the transaction ends and skipping rows another transaction
   * holds (so two servers never claim the same alert): `offline` for a node whose link was last heard at or
   * before `offlineBefore`, with no offline alert outstanding and no pair begun after `pairBefore`; `back`
   * for a node with an offline alert outstanding whose link was heard after `offlineBefore`.
   */
  claimDueAlerts(cutoffs: NodeAlertCutoffs, limit: number): Promise<DueNodeAlert[]>;
  /** Records a sent alert of a claimed node: `offline` begins a pair, `back` ends it. */
  recordAlert(id: string, kind: NodeAlertKind, at: Date): Promise<void>;
}

/** Which of the pair an alert is. */
export type NodeAlertKind = 'offline' | 'back';

/** The times that make an alert due (see NodeRepository.claimDueAlerts). */
export interface NodeAlertCutoffs {
  offlineBefore: Date;
  pairBefore: Date;
}

/** A node owing an alert, and when its link was last heard. */
export interface DueNodeAlert {
  node: NodeRecord;
  kind: NodeAlertKind;
  linkSeenAt: Date;
}

/** Node reads and the last-seen mark outside a transaction. */
export const NodeStore = Symbol.for('svc.NodeStore');
export type NodeStore = Pick<
  NodeRepository,
  'find' | 'findById' | 'findByTokenLookup' | 'list' | 'touch' | 'linkSeen' | 'acknowledgeOperatorFile'
>;

/** What the node use cases use of a transaction: the nodes, the owning profile, announcements, the audit log. */
export interface NodeScope extends AuditScope, OutboxScope, WebhookEventScope {
  nodes: Pick<NodeRepository, 'find' | 'findById' | 'findByEnrolmentLookup' | 'insert' | 'save'>;
  profiles: ProfileReadRepository;
}

/** What revoking an organisation's nodes uses of a transaction: each revocation is announced. */
export interface NodeRevocationScope extends OutboxScope {
  nodes: Pick<NodeRepository, 'revokeAll'>;
}

/** What sending node-offline alerts uses of a transaction: the owners to mail and whether they want it. */
export interface NodeAlertScope extends MailScope, WebhookEventScope {
  identity: { accounts: Pick<AccountReadRepository, 'listOwners'> };
  nodes: Pick<NodeRepository, 'claimDueAlerts' | 'recordAlert'>;
  preferences: Pick<PreferencesRepository, 'find'>;
  profiles: ProfileReadRepository;
}
