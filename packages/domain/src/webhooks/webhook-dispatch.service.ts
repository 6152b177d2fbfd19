import { webhookDisabledMail } from '../mail/webhook.mails.js';
import type { Clock } from '../shared/clock.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type {
  WebhookDeliveryRecord,
  WebhookRecord,
  WebhookScope,
  WebhookSecretSealer,
  WebhookSender,
  WebhookSendResult,
} from './webhook.ports.js';
import {
  WEBHOOK_DELIVERY_RETENTION_MS,
  WEBHOOK_FAILING_LIMIT_MS,
  WEBHOOK_PURGE_EVERY_MS,
  webhookRetryDelayMs,
} from './webhook-retry.js';

/** What delivering webhooks is built from. */
export interface WebhookDispatchDependencies {
  uow: ScopedUnitOfWork<WebhookScope>;
  sender: WebhookSender;
  clock: Clock;
  secretBox: WebhookSecretSealer;
  /** Endpoints served at a time by one server. Default 10. */
  batch?: number;
}

/** A claimed endpoint is this dispatcher's for this long (an attempt is bounded well below it). */
const LEASE_MS = 2 * 60_000;
/** Claims one drain makes at most before leaving the rest to the next tick. */
const ROUNDS = 50;
/** Deliveries one purge statement deletes, so that no transaction holds many rows at once. */
const PURGE_BATCH = 1_000;

/**
 * Delivers queued webhook messages at least once and in order per endpoint: each round leases endpoints whose
 * oldest pending delivery is due (another server skips them), attempts that head only, and records the outcome;
 * a failure schedules the same head again with exponential backoff, so nothing after it overtakes it. An
 * endpoint that has failed for three days is disabled, its pending deliveries failed, and its owners emailed.
 */
export class WebhookDispatcher {
  /** When this server last purged; null until its first purge. */
  private lastPurgeAt: Date | null = null;

  constructor(private readonly deps: WebhookDispatchDependencies) {}

  /**
   * Deletes delivered and failed deliveries queued more than 30 days ago, at most once an hour per server
   * (several servers purging the same rows is harmless); answers how many it deleted.
   */
  async purgeSettled(): Promise<number> {
    const now = this.deps.clock.now();
    if (this.lastPurgeAt !== null && now.getTime() - this.lastPurgeAt.getTime() < WEBHOOK_PURGE_EVERY_MS)
      return 0;
    this.lastPurgeAt = now;
    const before = new Date(now.getTime() - WEBHOOK_DELIVERY_RETENTION_MS);
    let purged = 0;
    for (;;) {
      const deleted = await this.deps.uow.run((tx) => tx.webhooks.purgeSettled(before, PURGE_BATCH));
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
    }
  }

  /** Attempts every delivery due now; answers how many succeeded. */
  async deliverDue(): Promise<number> {
    let succeeded = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const now = this.deps.clock.now();
      const heads = await this.deps.uow.run((tx) =>
        tx.webhooks.claimDue(now, new Date(now.getTime() + LEASE_MS), this.deps.batch ?? 10),
      );
      if (heads.length === 0) break;
      const outcomes = await Promise.all(heads.map((head) => this.attempt(head)));
      succeeded += outcomes.filter(Boolean).length;
    }
    return succeeded;
  }

  private async attempt(head: WebhookDeliveryRecord): Promise<boolean> {
    const webhook = await this.deps.uow.run((tx) => tx.webhooks.findById(head.webhookId));
    if (webhook === null) return false;
    const sentAt = this.deps.clock.now();
    const result = await this.deps.sender.send({
      url: webhook.url,
      messageId: head.messageId,
      timestamp: Math.floor(sentAt.getTime() / 1000),
      body: head.body,
      secrets: this.secretsOf(webhook, sentAt),
    });
    await this.record(webhook, head, result);
    return result.ok;
  }

  private async record(
    webhook: WebhookRecord,
    head: WebhookDeliveryRecord,
    result: WebhookSendResult,
  ): Promise<void> {
    const at = this.deps.clock.now();
    const failingSince = result.ok ? null : (webhook.failingSince ?? at);
    const givingUp =
      failingSince !== null && at.getTime() - failingSince.getTime() >= WEBHOOK_FAILING_LIMIT_MS;
    await this.deps.uow.run(async (tx) => {
      await tx.webhooks.recordAttempt({
        deliveryId: head.id,
        webhookId: webhook.id,
        at,
        succeeded: result.ok,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
        nextAttemptAt:
          result.ok || givingUp ? null : new Date(at.getTime() + webhookRetryDelayMs(head.attempts + 1)),
      });
      if (!givingUp || failingSince === null) return;
      await tx.webhooks.disableFailing(webhook.id, at);
      for (const owner of await tx.identity.accounts.listOwners(webhook.orgId))
        await tx.mail.enqueue(
          webhookDisabledMail(owner.email, {
            webhookId: webhook.id,
            url: webhook.url,
            failingSince,
            lastError: result.error,
          }),
        );
    });
  }

  /** The current secret, and the previous one while its overlap lasts: each adds a signature. */
  private secretsOf(webhook: WebhookRecord, at: Date): string[] {
    const secrets = [this.deps.secretBox.open(webhook.sealedSecret)];
    const expires = webhook.previousSecretExpiresAt;
    if (webhook.sealedPreviousSecret !== null && expires !== null && expires > at)
      secrets.push(this.deps.secretBox.open(webhook.sealedPreviousSecret));
    return secrets;
  }
}
