import { generateKeyPairSync, sign } from 'node:crypto';
import type { NodeProfileDocument } from '@svc/sdk';
import { profileSignaturePayload } from '@svc/sdk';
import { nodeProfileDocument } from '@svc/testing/node-profile-document';
import { describe, expect, it } from 'vitest';
import { checkProfileDocument, ProfileDocumentRefusedError } from '../src/index.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
/** The raw 32-byte public key: the last 32 bytes of its SPKI DER form. */
const rawPublicKey = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
const keys = [{ key_id: 'k1', algorithm: 'Ed25519' as const, public_key: rawPublicKey }];

/** The document signed as the server signs it, with or without a sequence. */
function signed(sequence: number | undefined): NodeProfileDocument {
  const document: NodeProfileDocument = {
    ...nodeProfileDocument(),
    ...(sequence === undefined ? {} : { sequence }),
    profile_key_id: 'k1',
    profile_pubkey: rawPublicKey,
  };
  const signature = sign(null, Buffer.from(profileSignaturePayload(document), 'utf8'), privateKey);
  return { ...document, profile_signature: signature.toString('base64') };
}

describe(checkProfileDocument.name, () => {
  const applied = (sequence: number | null) => ({ profileId: 'k3x9q2', version: 1, sequence });
  const refusal = (document: NodeProfileDocument, sequence: number | null) => {
    try {
      checkProfileDocument(document, keys, applied(sequence));
      return null;
    } catch (error) {
      return error;
    }
  };

  it('takes a document issued at or after the one applied, and any before the first sequence', () => {
    expect(refusal(signed(2_000), 1_000)).toBeNull();
    expect(refusal(signed(1_000), 1_000)).toBeNull();
    expect(refusal(signed(1_000), null)).toBeNull();
    expect(refusal(signed(undefined), null)).toBeNull();
  });

  it('refuses a replay of an earlier document of the same version, or one signed without a sequence', () => {
    for (const replayed of [signed(999), signed(undefined)]) {
      const error = refusal(replayed, 1_000);
      expect(error).toBeInstanceOf(ProfileDocumentRefusedError);
      expect(error).toMatchObject({ reason: 'older_sequence' });
    }
  });
});
