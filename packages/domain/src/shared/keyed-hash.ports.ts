/**
 * Keyed MAC over the server secret (SVC_SECRET). Used to seal cursors and to hash bearer secrets, so that a
 * stored hash is useless without the key.
 */
export const KeyedHash = Symbol.for('svc.KeyedHash');
export interface KeyedHash {
  /** base64url MAC of `data` under the key derived for `purpose`. */
  mac(purpose: string, data: string): string;
  /** Constant-time comparison of a presented MAC with the expected one. */
  verify(purpose: string, data: string, presentedMac: string): boolean;
  /** Hex SHA-256 digest (unkeyed), for fingerprints. */
  sha256(data: string): string;
}
