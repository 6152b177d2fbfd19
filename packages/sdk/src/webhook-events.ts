import type { WebhookEventType as WebhookEventTypeSchema } from '@svc/domain';
import type { SchemaOutput } from './schema-types.js';

/** One event type an endpoint can subscribe to. */
export type WebhookEventType = SchemaOutput<typeof WebhookEventTypeSchema>;

/**
 * Every event type an endpoint can subscribe to (`events` of POST /v1/webhooks), for forms that offer them. The
 * type below fails to compile when this list and the API's differ.
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
] as const satisfies readonly WebhookEventType[];

type Missing = Exclude<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>;
/** Compiles only while the list above names every type of the API. */
export const everyWebhookEventListed: [Missing] extends [never] ? true : Missing = true;
