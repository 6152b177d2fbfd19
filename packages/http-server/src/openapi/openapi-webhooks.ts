import { WEBHOOK_EVENT_TYPES, type WebhookMessageType, webhookEnvelope } from '@svc/domain';
import type { JsonSchema, OutputSchemas } from './json-schema.js';

const HEADERS: readonly JsonSchema[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message’s id, the same over retries and redeliveries: deduplicate on it.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the epoch when this attempt was signed; refuse ones far from your clock.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64-decoded secret after `whsec_`; two during a secret rotation’s overlap (Standard Webhooks).',
    schema: { type: 'string' },
  },
];

/**
 * The `webhooks` section of the OpenAPI 3.1 document: one POST per event type, as the organisation's endpoint
 * receives it, signed as Standard Webhooks specifies (issue 40, docs/webhooks.md).
 */
export function webhookOperations(outputs: OutputSchemas): Record<string, { post: JsonSchema }> {
  const types: WebhookMessageType[] = ['ping', ...WEBHOOK_EVENT_TYPES];
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replaceAll('.', '_')}`,
          summary: type === 'ping' ? 'A test message (POST /v1/webhooks/{id}/test)' : `The ${type} event`,
          tags: ['webhooks'],
          // The receiver checks the signature headers; no credential of this API is sent.
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: outputs.add(webhookEnvelope(type)) } },
          },
          responses: {
            '2XX': { description: 'Received. Any other answer, or none within 10 s, is retried.' },
          },
        },
      },
    ]),
  );
}
