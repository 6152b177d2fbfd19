import { compactCanonicalJson } from '../shared/canonical-json.js';

// Still offered here: `@svc/domain/profile-signature` is what nodes import to verify a signed profile.
export { compactCanonicalJson };

/** The first line of every signed profile: names the format, so a later one cannot be confused with it. */
const PROFILE_SIGNATURE_PREFIX = 'svc-profile-v1\n';

/** Fields a signed document carries about its signature, left out of what is signed. */
const PROFILE_SIGNATURE_FIELDS = ['profile_signature', 'profile_key_id', 'profile_pubkey'] as const;

/**
 * The exact text a profile signature covers (its UTF-8 bytes are signed with Ed25519):
 *
 * ```
 * svc-profile-v1\n<profile id>\n<version in decimal>\n<compact canonical JSON of the document>
 * ```
 *
 * where the document is the node profile document without `profile_signature`, `profile_key_id` and
 * `profile_pubkey`. A node verifies by rebuilding this text from the document it received.
 */
export function profileSignaturePayload(document: Record<string, unknown>): string {
  const unsigned: Record<string, unknown> = { ...document };
  for (const field of PROFILE_SIGNATURE_FIELDS) delete unsigned[field];
  return `${PROFILE_SIGNATURE_PREFIX}${String(document.id)}\n${String(document.version)}\n${compactCanonicalJson(unsigned)}`;
}

/** One announced signing key. */
export interface ProfileSigningKey {
  keyId: string;
  /** Raw 32-byte Ed25519 public key, base64. */
  publicKey: string;
}
