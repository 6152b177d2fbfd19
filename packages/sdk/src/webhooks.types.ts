import type {
  WebhookCreate as WebhookCreateSchema,
  WebhookDelivery as WebhookDeliverySchema,
  WebhookEventData as WebhookEventDataSchemas,
  Webhook as WebhookSchema,
  WebhookSecretRotation as WebhookSecretRotationSchema,
  WebhookUpdate as WebhookUpdateSchema,
  WebhookWithSecret as WebhookWithSecretSchema,
} from '@svc/domain';
import type { SchemaInput, SchemaOutput } from './schema-types.js';

/** A webhook endpoint of the organisation (never its secret). */
export type Webhook = SchemaOutput<typeof WebhookSchema>;
/** The create and rotate answers: the endpoint and its signing secret (`whsec_…`), shown this once only. */
export type WebhookWithSecret = SchemaOutput<typeof WebhookWithSecretSchema>;
/** Body of POST /v1/webhooks. */
export type WebhookCreateRequest = SchemaInput<typeof WebhookCreateSchema>;
/** Body of PATCH /v1/webhooks/{id}. */
export type WebhookUpdateRequest = SchemaInput<typeof WebhookUpdateSchema>;
/** Body of POST /v1/webhooks/{id}/rotate-secret. */
export type WebhookSecretRotationRequest = SchemaInput<typeof WebhookSecretRotationSchema>;
/** One message to one endpoint, with its last attempt. */
export type WebhookDelivery = SchemaOutput<typeof WebhookDeliverySchema>;

type EventDataSchemas = typeof WebhookEventDataSchemas;

/**
 * A message as an endpoint receives it, by its `type`: narrow on `event.type` to get the typed `data`
 * (`profile.updated` carries the profile's new `version`).
 */
export type WebhookEvent = {
  [Type in keyof EventDataSchemas]: {
    type: Type;
    /** When the event happened (ISO 8601). */
    timestamp: string;
    data: SchemaOutput<EventDataSchemas[Type]>;
  };
}[keyof EventDataSchemas];
