import type { ProfileSigningKey } from './profile-signature.js';

/**
 * Signs node profile documents (spec 4.13). The first key signs; the others are still announced so that nodes
 * accept documents signed before a key rotation.
 */
export const ProfileSigner = Symbol.for('svc.ProfileSigner');
export interface ProfileSigner {
  /** The keys to announce, the signing key first; empty when this server does not sign. */
  keys(): readonly ProfileSigningKey[];
  /** Base64 Ed25519 signature of `payload`'s UTF-8 bytes with the signing key; null when not signing. */
  sign(payload: string): { signature: string; key: ProfileSigningKey } | null;
}
