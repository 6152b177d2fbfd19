import { type BusDelivery, MessageBus } from '@svc/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

export interface ProfileBody {
  id: string;
  name: string;
  version: number;
  security: Record<string, boolean>;
  parental: { categories: string[]; services: string[]; safe_search: boolean; youtube_restricted: boolean };
  settings: Record<string, unknown>;
  endpoints: { doh: string; dot: string; dot_device: string; doq: string; ipv6: string[]; ipv4: string[] };
  suspended: boolean;
}

/**
 * Starts the server on `storage` once for the suite, with an owner and a stranger, what the server published
 * to the edge, and the profile calls every behaviour uses.
 */
export function useProfilesFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  const published: BusDelivery[] = [];

  beforeAll(async () => {
    // An operator ECS cap below /32 for IPv4, so that the documents show it applied (spec 2.3).
    api = await startApi(storage, { SVC_ECS_CAP_V4: '20' });
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

  const create = async (body: object = {}, who: TestAccount = owner) => {
    const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body });
    expect(answer.status).toBe(201);
    return { answer, profile: answer.json as ProfileBody };
  };

  const patch = (id: string, body: object, headers: Record<string, string> = {}, who: TestAccount = owner) =>
    send(`${api.url}/v1/profiles/${id}`, { method: 'PATCH', headers: { ...who.auth, ...headers }, body });

  const documentsOf = (id: string) =>
    published
      .filter((delivery) => delivery.subject === `profiles.${id}`)
      .map((delivery) => delivery.payload as Record<string, unknown>);
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
    published,
    create,
    patch,
    documentsOf,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type ProfilesFixture = ReturnType<typeof useProfilesFixture>;
