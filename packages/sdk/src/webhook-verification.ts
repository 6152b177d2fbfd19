import type { WebhookEvent } from './webhooks.types.js';

/** A delivery that is not what svc signed: refuse it (answer 400 or 401), never act on its body. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300), against replays. */
  toleranceSeconds?: number;
  /** The time to check against (tests); default now. */
  now?: Date;
}

const encoder = new TextEncoder();

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === null || text === '')
    throw new WebhookVerificationError(`missing ${name}`);
  return text;
}

function base64Bytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function bytesBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares two strings in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * Verifies a webhook delivery as Standard Webhooks specifies and returns its typed event: `body` is the raw
 * request body (the exact text, before any JSON parsing), `secret` the endpoint's `whsec_…`. Throws
 * {@link WebhookVerificationError} for a missing header, a timestamp outside the tolerance or no matching
 * `v1` signature. Uses Web Crypto: Node 20+, Deno, Bun, workers and browsers alike.
 */
export async function verifyWebhook(
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const key = await crypto.subtle.importKey(
    'raw',
    base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const expected = bytesBase64(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`)),
  );
  const matches = signatures
    .split(' ')
    .some((signature) => signature.startsWith('v1,') && sameText(signature.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('no signature matches the secret');
  return JSON.parse(body) as WebhookEvent;
}
