import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * One `v1,` signature of Standard Webhooks: base64 HMAC-SHA256, keyed with the base64-decoded part of the secret
 * after `whsec_`, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
function standardWebhookSignature(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const digest = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated, as the specification allows. */
export function standardWebhookSignatureHeader(
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => standardWebhookSignature(secret, messageId, timestamp, body)).join(' ');
}
