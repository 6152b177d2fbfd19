import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { profileSignaturePayload } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

/** The raw 32-byte Ed25519 public key of a private key, base64, as the API announces it. */
function rawPublicKey(privateKey: ReturnType<typeof generateKeyPairSync>['privateKey']): string {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
}

/**
 * SVC_PROFILE_SIGNING_KEYS (spec 4.13: keys rotated with an overlap): every key is announced at enrolment, the
 * signing key first, and documents are signed by the first; PEM and base64 DER entries are both read.
 */
describe('profile signing keys from SVC_PROFILE_SIGNING_KEYS (4.13)', () => {
  const signing = generateKeyPairSync('ed25519').privateKey;
  const previous = generateKeyPairSync('ed25519').privateKey;
  let api: ApiHarness;
  let owner: TestAccount;

  beforeAll(async () => {
    const keys = [
      signing.export({ format: 'pem', type: 'pkcs8' }).toString(),
      previous.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    ].join(',');
    api = await startApi('memory', { SVC_PROFILE_SIGNING_KEYS: keys });
    owner = await createAccount(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('announces both keys, the signing key first, and signs with it', async () => {
    const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    const profileId = (profile.json as { id: string }).id;
    const created = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'keys' },
    });
    const code = (created.json as { enrolment_code: string }).enrolment_code;
    const enrolled = await send(`${api.url}/v1/nodes/enrol`, {
      method: 'POST',
      body: { enrolment_code: code },
    });
    const { node_token, profile_pubkey } = enrolled.json as {
      node_token: string;
      profile_pubkey: { key_id: string; public_key: string }[];
    };
    expect(profile_pubkey.map((key) => key.public_key)).toEqual([
      rawPublicKey(signing),
      rawPublicKey(previous),
    ]);
    expect(new Set(profile_pubkey.map((key) => key.key_id)).size).toBe(2);
    const answer = await send(`${api.url}/v1/nodes/self/profile`, {
      headers: { authorization: `Bearer ${node_token}` },
    });
    const document = answer.json as Record<string, unknown>;
    expect(document.profile_key_id).toBe(profile_pubkey[0]?.key_id);
    const payload = Buffer.from(profileSignaturePayload(document), 'utf8');
    const signature = Buffer.from(String(document.profile_signature), 'base64');
    expect(verify(null, payload, createPublicKey(signing), signature)).toBe(true);
    expect(verify(null, payload, createPublicKey(previous), signature)).toBe(false);
  });
});
