import { type BusDelivery, MessageBus } from '@svc/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createProfile as createProfileAs, suspendProfile } from '../../support/profiles.js';

export interface LinkedIpBody {
  id: string;
  ip: string | null;
  ddns: boolean;
  state: 'pending' | 'active';
  proof_url?: string;
  created_at: string;
  updated_at: string;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Starts the server on `storage` once for the suite, trusting the loopback proxy, with an owner and a stranger,
 * what the server published on its bus, and the linked-IP calls every behaviour uses.
 */
export function useLinkedIpsFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let nextAddress: number = 0;
  const published: BusDelivery[] = [];

  /** A documentation address (RFC 5737) no other test links. */
  const freshIp = () => {
    nextAddress += 1;
    return `203.0.113.${nextAddress}`;
  };

  beforeAll(async () => {
    api = await startApi(storage, { SVC_TRUST_PROXY: 'loopback' });
    const bus = await api.container.getAsync<MessageBus>(MessageBus);
    await bus.subscribe('profiles.>', (delivery) => {
      published.push(delivery);
    });
    owner = await createAccount(api);
    stranger = await createAccount(api);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const createProfile = (who: TestAccount = owner): Promise<string> => createProfileAs(api, who);

  /** A link sent from the address it names (proving it) unless `headers` say where it comes from. */
  const link = (
    profileId: string,
    body: { ip?: string; ddns?: boolean },
    who: TestAccount = owner,
    headers: Record<string, string> = {},
  ) =>
    send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
      method: 'POST',
      headers: {
        ...(body.ip === undefined ? {} : { 'x-forwarded-for': body.ip }),
        ...who.auth,
        ...headers,
      },
      body,
    });

  const linked = async (profileId: string, body: { ip?: string; ddns?: boolean }): Promise<LinkedIpBody> => {
    const answer = await link(profileId, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.json as LinkedIpBody;
  };

  const listOf = async (profileId: string, who: TestAccount = owner, query = '') => {
    const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips${query}`, {
      headers: who.auth,
    });
    return answer.json as { linked_ips: LinkedIpBody[]; next_cursor: string | null };
  };

  const etagOf = async (profileId: string) =>
    (await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth })).headers.etag;

  const updateUrlOf = async (profileId: string, linkId: string): Promise<string> => {
    const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${linkId}/ddns`, {
      headers: owner.auth,
    });
    expect(answer.status).toBe(200);
    return (answer.json as { update_url: string }).update_url;
  };

  const rotate = (profileId: string, linkId: string, who: TestAccount = owner) =>
    send(`${api.url}/v1/profiles/${profileId}/linked-ips/${linkId}/ddns`, {
      method: 'POST',
      headers: who.auth,
    });

  const ddns = (url: string, from?: string) =>
    send(url, { headers: from === undefined ? {} : { 'x-forwarded-for': from } });

  const documentsOf = (profileId: string) =>
    published
      .filter((delivery) => delivery.subject === `profiles.${profileId}`)
      .map((delivery) => delivery.payload as Record<string, unknown>);

  const documentAt = async (profileId: string, version: number) =>
    (
      await eventually(
        async () => documentsOf(profileId),
        (found) => found.some((document) => document.version === version),
      )
    ).find((document) => document.version === version);

  const suspend = (profileId: string) => suspendProfile(api, owner, profileId);
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
    get nextAddress(): number {
      return nextAddress;
    },
    published,
    freshIp,
    createProfile,
    link,
    linked,
    listOf,
    etagOf,
    updateUrlOf,
    rotate,
    ddns,
    documentsOf,
    documentAt,
    suspend,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type LinkedIpsFixture = ReturnType<typeof useLinkedIpsFixture>;
