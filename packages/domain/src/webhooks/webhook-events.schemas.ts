import { z } from 'zod';

/**
 * Event types a webhook endpoint subscribes to (issue 40). `ping` is sent only by `POST /v1/webhooks/{id}/test`
 * and needs no subscription.
 */
export const WEBHOOK_EVENT_TYPES = [
  'profile.created',
  'profile.updated',
  'profile.deleted',
  'node.enrolled',
  'node.offline',
  'node.online',
  'token.created',
  'token.revoked',
  'export.ready',
  'list_report.resolved',
  'account.deletion_requested',
  'account.deletion_canceled',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.ownership_transferred',
] as const;

/** One subscribable event type. */
export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES, { error: () => `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .meta({ id: 'WebhookEventType', description: 'An event a webhook endpoint can subscribe to.' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Every type a delivery may carry: the subscribable ones and `ping`. */
export type WebhookMessageType = WebhookEventType | 'ping';

const profileRef = { profile_id: z.string(), name: z.string() };

/**
 * A member's role as events carry it. Spelled here rather than imported: the identity context emits these
 * events, so importing its roles would make the two contexts depend on each other.
 */
const memberRole = z.enum(['owner', 'admin', 'editor', 'viewer']);
/** The member an event is about: their account id (the `id` of GET /v1/org/members) and address. */
const memberRef = { member_id: z.uuid(), email: z.string() };

/** The `data` of each event type, as the receiver gets it. */
export const WebhookEventData = {
  ping: z.object({ webhook_id: z.uuid() }),
  'profile.created': z.object({ ...profileRef, version: z.number().int() }),
  'profile.updated': z.object({
    ...profileRef,
    version: z.number().int().meta({ description: 'The profile’s new version (its ETag).' }),
  }),
  'profile.deleted': z.object({ profile_id: z.string(), version: z.number().int() }),
  'node.enrolled': z.object({ node_id: z.uuid(), profile_id: z.string(), name: z.string() }),
  'node.offline': z.object({ node_id: z.uuid(), profile_id: z.string(), last_seen_at: z.iso.datetime() }),
  'node.online': z.object({ node_id: z.uuid(), profile_id: z.string(), last_seen_at: z.iso.datetime() }),
  'token.created': z.object({ token_id: z.uuid(), name: z.string(), scopes: z.array(z.string()) }),
  'token.revoked': z.object({ token_id: z.uuid() }),
  'export.ready': z.object({ export_id: z.uuid() }),
  'list_report.resolved': z.object({
    report_id: z.uuid(),
    profile_id: z.string(),
    status: z.enum(['accepted', 'rejected']),
  }),
  'account.deletion_requested': z.object({ account_id: z.uuid(), erase_after: z.iso.datetime() }),
  'account.deletion_canceled': z.object({ account_id: z.uuid() }),
  'member.invited': z.object({
    invitation_id: z.uuid(),
    email: z.string(),
    role: memberRole,
    expires_at: z.iso.datetime(),
  }),
  'member.joined': z.object({ ...memberRef, role: memberRole, invitation_id: z.uuid() }),
  'member.role_changed': z.object({
    ...memberRef,
    role: memberRole.meta({ description: 'The member’s new role.' }),
    previous_role: memberRole,
  }),
  'member.removed': z.object({
    ...memberRef,
    role: memberRole.meta({ description: 'The role the member had.' }),
  }),
  'member.ownership_transferred': z.object({
    ...memberRef,
    previous_owner_id: z.uuid().meta({ description: 'The former owner, now an admin.' }),
  }),
} as const satisfies Record<WebhookMessageType, z.ZodType>;

/** The `data` of an event of type `T`. */
export type WebhookEventDataOf<T extends WebhookMessageType> = z.infer<(typeof WebhookEventData)[T]>;

/**
 * The body of every delivery, as Standard Webhooks suggests: the type, when the event happened, and its data.
 * The same message keeps its `webhook-id` over retries and redeliveries, so receivers deduplicate on it.
 */
export function webhookEnvelope<T extends WebhookMessageType>(type: T) {
  return z
    .object({
      type: z.literal(type),
      timestamp: z.iso.datetime().meta({ description: 'When the event happened.' }),
      data: WebhookEventData[type],
    })
    .meta({ id: `WebhookEvent_${type.replaceAll('.', '_')}` });
}

/** A message queued for an organisation's endpoints. */
export interface WebhookEvent {
  /** Sent as `webhook-id`; the same over retries and redeliveries. */
  id: string;
  orgId: string;
  type: WebhookMessageType;
  occurredAt: Date;
  /** The serialised body, exactly the bytes that are signed. */
  body: string;
}

/** The serialised body of an event of `type`. */
export function webhookBody<T extends WebhookMessageType>(
  type: T,
  occurredAt: Date,
  data: WebhookEventDataOf<T>,
): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}
