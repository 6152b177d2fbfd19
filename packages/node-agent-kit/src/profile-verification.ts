import { createPublicKey, verify } from 'node:crypto';
import { type NodeProfileDocument, type ProfilePublicKey, profileSignaturePayload } from '@svc/sdk';

/** SPKI DER header of an Ed25519 public key; the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A profile document that must not be applied: unsigned, signed by an unknown key, or not matching. */
export class ProfileSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileSignatureError';
  }
}

/**
 * Checks a profile document's Ed25519 signature against the keys announced at enrolment (spec 4.13): the key
 * named by `profile_key_id` must be one of them, with the same public key, and the signature must cover the
 * exact text of {@link profileSignaturePayload}. Throws {@link ProfileSignatureError}; returns the document.
 */
export function verifyProfileDocument(
  document: NodeProfileDocument,
  keys: readonly ProfilePublicKey[],
): NodeProfileDocument {
  const { profile_signature: signature, profile_key_id: keyId } = document;
  if (signature === undefined || keyId === undefined) {
    throw new ProfileSignatureError('the profile document is not signed');
  }
  const key = keys.find((candidate) => candidate.key_id === keyId);
  if (key === undefined || key.public_key !== document.profile_pubkey) {
    throw new ProfileSignatureError(`the profile document is signed by an unknown key (${keyId})`);
  }
  const publicKey = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.public_key, 'base64')]),
    format: 'der',
    type: 'spki',
  });
  const payload = Buffer.from(profileSignaturePayload(document), 'utf8');
  if (!verify(null, payload, publicKey, Buffer.from(signature, 'base64'))) {
    throw new ProfileSignatureError('the profile document’s signature does not verify');
  }
  return document;
}
