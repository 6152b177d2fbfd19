import type { Clock } from '../shared/clock.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { WebhookEventScope } from './webhook.ports.js';
import { type WebhookEventDataOf, type WebhookEventType, webhookBody } from './webhook-events.schemas.js';

/** What announcing an event needs beyond the transaction. */
export interface WebhookEmitDependencies {
  random: Random;
  clock: Clock;
}

/**
 * Queues an event for the organisation's subscribed endpoints in the caller's transaction: it is delivered
 * only if the change it announces commits, and then at least once (issue 40, ADR 0049).
 */
export async function emitWebhookEvent<T extends WebhookEventType>(
  tx: WebhookEventScope,
  deps: WebhookEmitDependencies,
  orgId: string,
  type: T,
  data: WebhookEventDataOf<T>,
): Promise<void> {
  const occurredAt = deps.clock.now();
  await tx.webhooks.enqueue(
    { id: `msg_${deps.random.uuid()}`, orgId, type, occurredAt, body: webhookBody(type, occurredAt, data) },
    () => deps.random.uuid(),
    occurredAt,
  );
}
