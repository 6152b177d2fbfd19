import { encodeBytesBase64Url } from '../shared/base64url.js';
import type { Random } from '../shared/random.ports.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiple of 62 below 256: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 248;

/** Keyed-hash purposes of stored bearer secrets; one key per purpose, so hashes never stand in for another. */
export const SecretPurpose = {
  session: 'session-token',
  apiToken: 'api-token',
  oneTime: 'one-time-token',
  invite: 'invite-code',
  orgInvitation: 'org-invitation',
} as const;

/** `length` characters of [A-Za-z0-9] drawn uniformly from the CSPRNG (rejection sampling, no modulo bias). */
export function randomAlphanumeric(random: Random, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random.bytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHANUMERIC[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** An API token secret: `svc_` and 52 alphanumerics (about 309 bits), spec 5.3. */
export function newApiTokenSecret(random: Random): string {
  return `svc_${randomAlphanumeric(random, 52)}`;
}

/** The shape every API token secret has; anything else is refused before a lookup. */
export const API_TOKEN_PATTERN = /^svc_[A-Za-z0-9]{52}$/;

/** An opaque bearer value: `prefix` and 32 random bytes in base64url (256 bits). */
export function newOpaqueToken(random: Random, prefix = ''): string {
  return `${prefix}${encodeBytesBase64Url(random.bytes(32))}`;
}
