import {
  isAfterKeyset,
  newestFirst,
  type WebhookDeliveryRecord,
  type WebhookEvent,
  type WebhookRecord,
  type WebhookRepository,
} from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

type QueueMember =
  | 'enqueue'
  | 'findDelivery'
  | 'listDeliveries'
  | 'claimDue'
  | 'recordAttempt'
  | 'disableFailing'
  | 'purgeSettled';

const copy = <T>(value: T): T => structuredClone(value);
const strip = ({ seq: _seq, ...row }: WebhookDeliveryRecord & { seq: number }): WebhookDeliveryRecord =>
  copy(row);

/** A new delivery of `event` to one endpoint, due at once. */
function pendingDelivery(
  event: WebhookEvent,
  webhookId: string,
  id: string,
  seq: number,
  at: Date,
): WebhookDeliveryRecord & { seq: number } {
  return {
    id,
    seq,
    webhookId,
    orgId: event.orgId,
    messageId: event.id,
    eventType: event.type,
    body: event.body,
    occurredAt: event.occurredAt,
    status: 'pending',
    attempts: 0,
    responseStatus: null,
    durationMs: null,
    lastError: null,
    nextAttemptAt: at,
    lastAttemptAt: null,
    createdAt: at,
  };
}

interface State {
  webhooks: Map<string, WebhookRecord>;
  deliveries: Map<string, WebhookDeliveryRecord & { seq: number }>;
  leases: Map<string, Date>;
  seq: number;
}

/** Webhook endpoints and deliveries of an engine-free server; memory runs are serial, so leases need no lock. */
export class MemoryWebhookStore implements Snapshottable {
  private state: State = { webhooks: new Map(), deliveries: new Map(), leases: new Map(), seq: 0 };

  snapshot(): unknown {
    return structuredClone(this.state);
  }

  restore(snapshot: unknown): void {
    this.state = snapshot as State;
  }

  repository(): WebhookRepository {
    return { ...this.endpoints(), ...this.queue() };
  }

  private deliveriesOf(webhookId: string): (WebhookDeliveryRecord & { seq: number })[] {
    return [...this.state.deliveries.values()].filter((row) => row.webhookId === webhookId);
  }

  /** The endpoints' part of the repository. */
  private endpoints(): Omit<WebhookRepository, QueueMember> {
    const state = () => this.state;
    const deliveriesOf = (webhookId: string) => this.deliveriesOf(webhookId);
    return {
      insert: async (webhook) => void state().webhooks.set(webhook.id, copy(webhook)),
      find: async (orgId, id) => {
        const row = state().webhooks.get(id);
        return row === undefined || row.orgId !== orgId ? null : copy(row);
      },
      findById: async (id) => copy(state().webhooks.get(id) ?? null),
      save: async (webhook) => void state().webhooks.set(webhook.id, copy(webhook)),
      delete: async (orgId, id) => {
        const row = state().webhooks.get(id);
        if (row === undefined || row.orgId !== orgId) return false;
        state().webhooks.delete(id);
        for (const delivery of deliveriesOf(id)) state().deliveries.delete(delivery.id);
        return true;
      },
      deleteAll: async (orgId) => {
        for (const webhook of [...state().webhooks.values()].filter((row) => row.orgId === orgId)) {
          state().webhooks.delete(webhook.id);
          for (const delivery of deliveriesOf(webhook.id)) state().deliveries.delete(delivery.id);
        }
      },
      list: async (orgId, page) =>
        [...state().webhooks.values()]
          .filter((row) => row.orgId === orgId && isAfterKeyset(row, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map(copy),
      count: async (orgId) => [...state().webhooks.values()].filter((row) => row.orgId === orgId).length,
      subscribed: async (orgId, type) =>
        [...state().webhooks.values()].some(
          (webhook) => webhook.orgId === orgId && webhook.enabled && webhook.events.includes(type),
        ),
    };
  }

  /** The deliveries' part of the repository: the queue, its claims and outcomes. */
  private queue(): Pick<WebhookRepository, QueueMember> {
    const state = () => this.state;
    const deliveriesOf = (webhookId: string) => this.deliveriesOf(webhookId);
    return {
      enqueue: async (event, deliveryIds, at, only) => {
        const targets = [...state().webhooks.values()].filter((webhook) =>
          only === undefined
            ? webhook.orgId === event.orgId &&
              webhook.enabled &&
              webhook.events.some((type) => type === event.type)
            : webhook.id === only && webhook.orgId === event.orgId,
        );
        return targets.map((webhook) => {
          const id = deliveryIds();
          state().seq += 1;
          state().deliveries.set(id, pendingDelivery(event, webhook.id, id, state().seq, at));
          return id;
        });
      },
      findDelivery: async (orgId, webhookId, id) => {
        const row = state().deliveries.get(id);
        return row === undefined || row.orgId !== orgId || row.webhookId !== webhookId ? null : strip(row);
      },
      listDeliveries: async (orgId, webhookId, page) =>
        deliveriesOf(webhookId)
          .filter((row) => row.orgId === orgId && isAfterKeyset(row, page.after))
          .sort((a, b) => newestFirst(a, b) || b.seq - a.seq)
          .slice(0, page.limit)
          .map(strip),
      claimDue: async (now, leaseUntil, limit) => {
        const heads: WebhookDeliveryRecord[] = [];
        for (const webhook of state().webhooks.values()) {
          if (heads.length >= limit) break;
          const lease = state().leases.get(webhook.id);
          if (!webhook.enabled || (lease !== undefined && lease > now)) continue;
          const head = deliveriesOf(webhook.id)
            .filter((row) => row.status === 'pending')
            .sort((a, b) => a.seq - b.seq)[0];
          if (head === undefined || head.nextAttemptAt === null || head.nextAttemptAt > now) continue;
          state().leases.set(webhook.id, leaseUntil);
          heads.push(strip(head));
        }
        return heads;
      },
      recordAttempt: async (attempt) => {
        state().leases.delete(attempt.webhookId);
        const row = state().deliveries.get(attempt.deliveryId);
        if (row !== undefined)
          state().deliveries.set(row.id, {
            ...row,
            status: attempt.succeeded ? 'succeeded' : attempt.nextAttemptAt === null ? 'failed' : 'pending',
            attempts: row.attempts + 1,
            responseStatus: attempt.responseStatus,
            durationMs: attempt.durationMs,
            lastError: attempt.error,
            nextAttemptAt: attempt.nextAttemptAt,
            lastAttemptAt: attempt.at,
          });
        const webhook = state().webhooks.get(attempt.webhookId);
        if (webhook !== undefined)
          state().webhooks.set(webhook.id, {
            ...webhook,
            failingSince: attempt.succeeded ? null : (webhook.failingSince ?? attempt.at),
          });
      },
      purgeSettled: async (before, limit) => {
        const settled = [...state().deliveries.values()]
          .filter((row) => row.status !== 'pending' && row.createdAt < before)
          .slice(0, limit);
        for (const row of settled) state().deliveries.delete(row.id);
        return settled.length;
      },
      disableFailing: async (webhookId, at) => {
        const webhook = state().webhooks.get(webhookId);
        if (webhook === undefined) return;
        state().webhooks.set(webhookId, {
          ...webhook,
          enabled: false,
          disabledReason: 'failing',
          updatedAt: at,
        });
        for (const row of deliveriesOf(webhookId))
          if (row.status === 'pending')
            state().deliveries.set(row.id, {
              ...row,
              status: 'failed',
              nextAttemptAt: null,
              lastError: row.lastError ?? 'the endpoint was disabled',
            });
      },
    };
  }
}
