import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createProfile as createProfileAs } from '../../support/profiles.js';

export interface NodeBody {
  id: string;
  profile_id: string;
  name: string;
  state: 'pending' | 'enrolled' | 'revoked';
  version: string | null;
  shapes: string[];
  connected: boolean;
  last_seen_at: string | null;
  enrolment_expires_at: string;
  enrolled_at: string | null;
  token_rotated_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface Enrolled {
  node: NodeBody;
  node_token: string;
  profile_pubkey: { key_id: string; algorithm: string; public_key: string }[];
}

/** SPKI DER header of an Ed25519 public key; the raw 32 bytes follow. */
export const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Starts the server on `storage` once for the suite, with an owner, a stranger and a read-only account, and
 * the node calls every behaviour uses.
 */
export function useNodesFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let reader: TestAccount;
  beforeAll(async () => {
    api = await startApi(storage);
    owner = await createAccount(api);
    stranger = await createAccount(api);
    reader = await createAccount(api, ['profiles:read']);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const createProfile = (who: TestAccount = owner): Promise<string> => createProfileAs(api, who);

  const createNode = (profileId: string, body: object = { name: 'rack' }, headers = owner.auth) =>
    send(`${api.url}/v1/profiles/${profileId}/nodes`, { method: 'POST', headers, body });

  const created = async (profileId: string) => {
    const answer = await createNode(profileId);
    expect(answer.status, answer.text).toBe(201);
    return answer.json as { node: NodeBody; enrolment_code: string };
  };

  const enrol = (code: string, extra: object = {}) =>
    send(`${api.url}/v1/nodes/enrol`, { method: 'POST', body: { enrolment_code: code, ...extra } });

  const enrolled = async (profileId: string, extra: object = { version: '1.0.0', shapes: ['tail'] }) => {
    const { enrolment_code } = await created(profileId);
    const answer = await enrol(enrolment_code, extra);
    expect(answer.status, answer.text).toBe(201);
    return answer.json as Enrolled;
  };

  const asNode = (token: string) => ({ authorization: `Bearer ${token}` });

  const self = (token: string) => send(`${api.url}/v1/nodes/self`, { headers: asNode(token) });

  const rotate = (token: string) =>
    send(`${api.url}/v1/nodes/self/token`, { method: 'POST', headers: asNode(token) });

  const listNodes = async (profileId: string, who = owner, query = '') => {
    const answer = await send(`${api.url}/v1/profiles/${profileId}/nodes${query}`, { headers: who.auth });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { nodes: NodeBody[]; next_cursor: string | null };
  };

  const revoke = (profileId: string, nodeId: string, who = owner) =>
    send(`${api.url}/v1/profiles/${profileId}/nodes/${nodeId}`, { method: 'DELETE', headers: who.auth });
  return {
    get api(): ApiHarness {
      return api;
    },
    get owner(): TestAccount {
      return owner;
    },
    get stranger(): TestAccount {
      return stranger;
    },
    get reader(): TestAccount {
      return reader;
    },
    createProfile,
    createNode,
    created,
    enrol,
    enrolled,
    asNode,
    self,
    rotate,
    listNodes,
    revoke,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type NodesFixture = ReturnType<typeof useNodesFixture>;
