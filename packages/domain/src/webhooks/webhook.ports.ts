import type { MailScope } from '../mail/mail-queue.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type { WebhookDeliveryStatus } from './webhook.schemas.js';
import type { WebhookEvent, WebhookEventType } from './webhook-events.schemas.js';

/** A webhook endpoint as stored; its secrets are sealed with the server key (SecretBox). */
export interface WebhookRecord {
  id: string;
  orgId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: 'failing' | null;
  /** The current signing secret, sealed. */
  sealedSecret: string;
  /** The secret before the last rotation, sealed; it still signs until `previousSecretExpiresAt`. */
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** When the first of an unbroken run of failed attempts happened; cleared by a success. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One message to one endpoint. `seq` (assigned by the store) orders an endpoint's deliveries. */
export interface WebhookDeliveryRecord {
  id: string;
  webhookId: string;
  orgId: string;
  messageId: string;
  eventType: string;
  body: string;
  occurredAt: Date;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
}

/** The outcome of one attempt, recorded on the delivery and its endpoint. */
export interface WebhookAttemptRecord {
  deliveryId: string;
  webhookId: string;
  at: Date;
  succeeded: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** When to try again; null when the delivery is settled (succeeded, or failed for good). */
  nextAttemptAt: Date | null;
}

/** Webhook endpoints and their deliveries, inside a transaction. */
export interface WebhookRepository {
  insert(webhook: WebhookRecord): Promise<void>;
  find(orgId: string, id: string, options?: { forUpdate?: boolean }): Promise<WebhookRecord | null>;
  save(webhook: WebhookRecord): Promise<void>;
  /** Deletes the endpoint and its deliveries. */
  delete(orgId: string, id: string): Promise<boolean>;
  /** Deletes every endpoint of the organisation and their deliveries (account erasure). */
  deleteAll(orgId: string): Promise<void>;
  list(orgId: string, page: KeysetPage): Promise<WebhookRecord[]>;
  count(orgId: string): Promise<number>;
  /** Whether an enabled endpoint of the organisation is subscribed to `type`. */
  subscribed(orgId: string, type: WebhookEventType): Promise<boolean>;
  /**
   * Queues `event` for every enabled endpoint of its organisation subscribed to its type (or, with `only`,
   * for that endpoint whatever it subscribes to: a ping, a redelivery).
   */
  enqueue(event: WebhookEvent, deliveryIds: () => string, at: Date, only?: string): Promise<string[]>;
  findDelivery(orgId: string, webhookId: string, id: string): Promise<WebhookDeliveryRecord | null>;
  /** An endpoint's deliveries, newest first. */
  listDeliveries(orgId: string, webhookId: string, page: KeysetPage): Promise<WebhookDeliveryRecord[]>;
  /**
   * Leases up to `limit` enabled endpoints whose oldest pending delivery is due at `now` and not leased by
   * another dispatcher until `leaseUntil`; answers those heads, one per endpoint.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<WebhookDeliveryRecord[]>;
  /** Records an attempt, sets the endpoint's failing run, and releases its lease. */
  recordAttempt(attempt: WebhookAttemptRecord): Promise<void>;
  /** Disables an endpoint that failed for three days and fails its pending deliveries. */
  disableFailing(webhookId: string, at: Date): Promise<void>;
  /**
   * Deletes up to `limit` delivered or failed deliveries queued before `before`, whatever their organisation;
   * pending ones stay whatever their age. Answers how many it deleted.
   */
  purgeSettled(before: Date, limit: number): Promise<number>;
  /** The endpoint's record, whatever its organisation (the dispatcher). */
  findById(id: string): Promise<WebhookRecord | null>;
}

/** What a use case that announces an event uses of a transaction. */
export interface WebhookEventScope {
  webhooks: Pick<WebhookRepository, 'enqueue'>;
}

/** What the webhook use cases use of a transaction. */
export interface WebhookScope extends MailScope {
  webhooks: WebhookRepository;
  identity: { accounts: { listOwners(orgId: string): Promise<{ email: string }[]> } };
}

/** Outcome of one HTTP attempt to an endpoint. */
export interface WebhookSendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** Why it failed; null on success. */
  error: string | null;
}

/** A signed request to an endpoint. */
export interface WebhookRequest {
  url: string;
  messageId: string;
  /** Seconds since the epoch, sent as `webhook-timestamp`. */
  timestamp: number;
  body: string;
  /** Every secret that signs (`whsec_…`): the current one and, during an overlap, the previous one. */
  secrets: string[];
}

/**
 * Sends one signed request (Standard Webhooks), refusing loopback, private and reserved targets after
 * resolution unless the deployment allows them; never throws for what the endpoint did.
 */
export const WebhookSender = Symbol.for('svc.WebhookSender');
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookSendResult>;
  /** Why `url` is refused before any request (scheme, an address literal), or null. */
  refusal(url: string): string | null;
}

/** Seals signing secrets at rest with the server key (the identity context's SecretBox fits). */
export interface WebhookSecretSealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}
