import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type {
  WebhookDeliveryRecord,
  WebhookRecord,
  WebhookScope,
  WebhookSecretSealer,
  WebhookSender,
} from './webhook.ports.js';
import {
  WEBHOOKS_PER_ORGANISATION,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookSecretRotation,
  type WebhookUpdate,
  type WebhookWithSecret,
} from './webhook.schemas.js';
import { webhookBody } from './webhook-events.schemas.js';

/** What the webhook use cases are built from. */
export interface WebhookDependencies {
  uow: ScopedUnitOfWork<WebhookScope>;
  random: Random;
  clock: Clock;
  cursors: CursorSealer;
  secretBox: WebhookSecretSealer;
  sender: Pick<WebhookSender, 'refusal'>;
}

const SECRET_BYTES = 24;
const HOUR_MS = 3_600_000;

/** Managing an organisation's webhook endpoints and their deliveries (issue 40). */
export class WebhookService {
  constructor(private readonly deps: WebhookDependencies) {}

  async create(orgId: string, request: WebhookCreate): Promise<WebhookWithSecret> {
    this.assertDeliverable(request.url);
    const now = this.deps.clock.now();
    const secret = this.newSecret();
    const record: WebhookRecord = {
      id: this.deps.random.uuid(),
      orgId,
      url: request.url,
      description: request.description,
      events: [...new Set(request.events)],
      enabled: true,
      disabledReason: null,
      sealedSecret: this.deps.secretBox.seal(secret),
      sealedPreviousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.uow.run(async (tx) => {
      if ((await tx.webhooks.count(orgId)) >= WEBHOOKS_PER_ORGANISATION)
        throw validationFailed(
          [{ field: 'url', message: `at most ${WEBHOOKS_PER_ORGANISATION} endpoints per organisation` }],
          'This organisation has as many webhook endpoints as it may.',
        );
      await tx.webhooks.insert(record);
    });
    return { ...this.view(record), secret };
  }

  async get(orgId: string, id: string): Promise<WebhookRecord> {
    const record = await this.deps.uow.run((tx) => tx.webhooks.find(orgId, id));
    if (record === null) throw notFound('webhook');
    return record;
  }

  async list(orgId: string, limit: number, cursor: string | undefined) {
    const page = await pageNewestFirst(this.deps.cursors, 'webhooks', limit, cursor, (keyset) =>
      this.deps.uow.run((tx) => tx.webhooks.list(orgId, keyset)),
    );
    return { webhooks: page.items.map((record) => this.view(record)), next_cursor: page.nextCursor };
  }

  async update(orgId: string, id: string, request: WebhookUpdate): Promise<WebhookRecord> {
    if (request.url !== undefined) this.assertDeliverable(request.url);
    return this.change(orgId, id, (current, now) => {
      const enabling = request.enabled === true && !current.enabled;
      return {
        ...current,
        url: request.url ?? current.url,
        events: request.events === undefined ? current.events : [...new Set(request.events)],
        description: request.description ?? current.description,
        enabled: request.enabled ?? current.enabled,
        disabledReason: request.enabled === undefined ? current.disabledReason : null,
        // A resumed endpoint starts a new failing run: three more days before it is disabled again.
        failingSince: enabling ? null : current.failingSince,
        updatedAt: now,
      };
    });
  }

  async delete(orgId: string, id: string): Promise<void> {
    const deleted = await this.deps.uow.run((tx) => tx.webhooks.delete(orgId, id));
    if (!deleted) throw notFound('webhook');
  }

  /** A new secret; the previous one keeps signing (a second signature) for the overlap. */
  async rotateSecret(orgId: string, id: string, request: WebhookSecretRotation): Promise<WebhookWithSecret> {
    const secret = this.newSecret();
    const record = await this.change(orgId, id, (current, now) => ({
      ...current,
      sealedSecret: this.deps.secretBox.seal(secret),
      sealedPreviousSecret: request.overlap_hours > 0 ? current.sealedSecret : null,
      previousSecretExpiresAt:
        request.overlap_hours > 0 ? new Date(now.getTime() + request.overlap_hours * HOUR_MS) : null,
      updatedAt: now,
    }));
    return { ...this.view(record), secret };
  }

  /** Queues a `ping` to the endpoint, after whatever it is still owed. */
  async ping(orgId: string, id: string): Promise<WebhookDelivery> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const webhook = await tx.webhooks.find(orgId, id);
      if (webhook === null) throw notFound('webhook');
      const event = {
        id: `msg_${this.deps.random.uuid()}`,
        orgId,
        type: 'ping' as const,
        occurredAt: now,
        body: webhookBody('ping', now, { webhook_id: id }),
      };
      return this.queued(
        tx,
        webhook,
        await tx.webhooks.enqueue(event, () => this.deps.random.uuid(), now, id),
      );
    });
  }

  /** Queues the same message (same `webhook-id`, same body) again, as a new delivery. */
  async redeliver(orgId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const webhook = await tx.webhooks.find(orgId, id);
      const original = webhook === null ? null : await tx.webhooks.findDelivery(orgId, id, deliveryId);
      if (webhook === null || original === null) throw notFound('delivery');
      if (original.status === 'pending')
        throw new DomainError('validation_failed', 'This delivery is still being attempted.', {
          fieldErrors: [{ field: 'delivery', message: 'is still pending' }],
        });
      const event = {
        id: original.messageId,
        orgId,
        type: original.eventType as 'ping',
        occurredAt: original.occurredAt,
        body: original.body,
      };
      return this.queued(
        tx,
        webhook,
        await tx.webhooks.enqueue(event, () => this.deps.random.uuid(), now, id),
      );
    });
  }

  async deliveries(orgId: string, id: string, limit: number, cursor: string | undefined) {
    await this.get(orgId, id);
    const page = await pageNewestFirst(
      this.deps.cursors,
      `webhook-deliveries:${id}`,
      limit,
      cursor,
      (keyset) => this.deps.uow.run((tx) => tx.webhooks.listDeliveries(orgId, id, keyset)),
    );
    return { deliveries: page.items.map(deliveryView), next_cursor: page.nextCursor };
  }

  view(record: WebhookRecord): Webhook {
    return {
      id: record.id,
      url: record.url,
      description: record.description,
      events: record.events,
      enabled: record.enabled,
      disabled_reason: record.disabledReason,
      failing_since: record.failingSince?.toISOString() ?? null,
      previous_secret_expires_at: record.previousSecretExpiresAt?.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  }

  private async queued(tx: WebhookScope, webhook: WebhookRecord, ids: string[]): Promise<WebhookDelivery> {
    const delivery =
      ids[0] === undefined ? null : await tx.webhooks.findDelivery(webhook.orgId, webhook.id, ids[0]);
    if (delivery === null) throw new Error(`delivery of webhook ${webhook.id} was not queued`);
    return deliveryView(delivery);
  }

  private change(
    orgId: string,
    id: string,
    next: (current: WebhookRecord, now: Date) => WebhookRecord,
  ): Promise<WebhookRecord> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const current = await tx.webhooks.find(orgId, id, { forUpdate: true });
      if (current === null) throw notFound('webhook');
      const record = next(current, now);
      await tx.webhooks.save(record);
      return record;
    });
  }

  private assertDeliverable(url: string): void {
    const refusal = this.deps.sender.refusal(url);
    if (refusal !== null) throw validationFailed([{ field: 'url', message: refusal }]);
  }

  private newSecret(): string {
    let binary = '';
    for (const byte of this.deps.random.bytes(SECRET_BYTES)) binary += String.fromCharCode(byte);
    return `whsec_${btoa(binary)}`;
  }
}

/** The API view of a delivery. */
function deliveryView(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: record.id,
    webhook_id: record.webhookId,
    message_id: record.messageId,
    event_type: record.eventType,
    status: record.status,
    attempt: record.attempts,
    response_status: record.responseStatus,
    duration_ms: record.durationMs,
    error: record.lastError,
    next_attempt_at: record.nextAttemptAt?.toISOString() ?? null,
    created_at: record.createdAt.toISOString(),
    last_attempt_at: record.lastAttemptAt?.toISOString() ?? null,
  };
}
