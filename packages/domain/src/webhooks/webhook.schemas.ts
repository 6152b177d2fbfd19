import { z } from 'zod';
import { WebhookEventType } from './webhook-events.schemas.js';

const WEBHOOK_URL_MAX_LENGTH = 2000;
const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
/** Endpoints one organisation may register. */
export const WEBHOOKS_PER_ORGANISATION = 20;

/** Path of one webhook endpoint. */
export const WebhookId = z.uuid({ error: 'must be a uuid' });

/**
 * The endpoint address: an absolute http(s) URL without credentials. Whether it may be plain http or a private
 * address is the deployment's rule, checked by the service (SVC_OUTBOUND_ALLOW_PRIVATE).
 */
const WebhookUrl = z
  .string({ error: 'must be an https URL' })
  .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
  .refine((value) => URL.canParse(value), 'must be an https URL')
  .meta({ description: 'Where events are POSTed: https (plain http only where the operator allows it).' });

const WebhookEvents = z
  .array(WebhookEventType, { error: 'must be a list of event types' })
  .min(1, 'must name at least one event type')
  .max(50, 'must name at most 50 event types')
  .meta({ description: 'The event types sent to this endpoint.' });

const WebhookDescription = z
  .string({ error: 'must be a string' })
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, `must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`);

/** POST /v1/webhooks. */
export const WebhookCreate = z
  .object({
    url: WebhookUrl,
    events: WebhookEvents,
    description: WebhookDescription.default(''),
  })
  .strict()
  .meta({ id: 'WebhookCreate' });
export type WebhookCreate = z.infer<typeof WebhookCreate>;

/** PATCH /v1/webhooks/{id}: `enabled: true` turns an endpoint disabled after three days of failures back on. */
export const WebhookUpdate = z
  .object({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    description: WebhookDescription.optional(),
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()
  .meta({ id: 'WebhookUpdate' });
export type WebhookUpdate = z.infer<typeof WebhookUpdate>;

/** POST /v1/webhooks/{id}/rotate-secret. */
export const WebhookSecretRotation = z
  .object({
    overlap_hours: z
      .number({ error: 'must be a number of hours' })
      .int('must be a whole number of hours')
      .min(0, 'must be at least 0')
      .max(168, 'must be at most 168 (a week)')
      .default(24)
      .meta({ description: 'How long the previous secret still signs beside the new one.' }),
  })
  .strict()
  .meta({ id: 'WebhookSecretRotation' });
export type WebhookSecretRotation = z.infer<typeof WebhookSecretRotation>;

/** A webhook endpoint (never its secret). */
export const Webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(WebhookEventType),
    enabled: z.boolean(),
    disabled_reason: z.enum(['failing']).nullable().meta({
      description: '`failing`: every delivery failed for three days; PATCH `enabled: true` resumes.',
    }),
    failing_since: z.iso.datetime().nullable(),
    previous_secret_expires_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

/** The create and rotate answers: the signing secret, shown only here. */
export const WebhookWithSecret = Webhook.extend({
  secret: z.string().meta({ description: 'The signing secret (`whsec_` and base64), shown once.' }),
}).meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookList = z
  .object({ webhooks: z.array(Webhook), next_cursor: z.string().nullable() })
  .meta({ id: 'WebhookList' });

/** Where a delivery stands. */
export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One message to one endpoint, with its last attempt. */
export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    webhook_id: z.uuid(),
    message_id: z.string().meta({ description: 'The `webhook-id` header, the same over redeliveries.' }),
    event_type: z.string(),
    status: WebhookDeliveryStatus,
    attempt: z.number().int().meta({ description: 'Attempts made so far.' }),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable().meta({ description: 'Why the last attempt failed, if it did.' }),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    last_attempt_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z
  .object({ deliveries: z.array(WebhookDelivery), next_cursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryList' });
