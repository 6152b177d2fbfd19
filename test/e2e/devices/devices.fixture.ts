import { createHash } from 'node:crypto';
import { AuditLogStore, type DeviceSighting, DeviceSightings } from '@svc/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { createProfile as createProfileAs, suspendProfile } from '../../support/profiles.js';

interface DeviceBody {
  id: string;
  name: string;
  display_name: string | null;
  label: string;
  kind: string;
  notes: string;
  identification: string;
  transport_last: string | null;
  first_seen: string;
  last_seen: string;
  queries_24h: number | null;
  blocked_24h: number | null;
}

export const DEVICE_FIELDS = [
  'blocked_24h',
  'display_name',
  'first_seen',
  'id',
  'identification',
  'kind',
  'label',
  'last_seen',
  'name',
  'notes',
  'queries_24h',
  'transport_last',
].sort();

export const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

export const MINUTE = 60_000;

/**
 * Starts the server on `storage` once for the suite, with an owner and a stranger, the sightings and audit log
 * behind it, and the device calls every behaviour uses.
 */
export function useDevicesFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let sightings: DeviceSightings;
  let auditLog: AuditLogStore;
  beforeAll(async () => {
    api = await startApi(storage);
    owner = await createAccount(api);
    stranger = await createAccount(api);
    sightings = await api.container.getAsync<DeviceSightings>(DeviceSightings);
    auditLog = await api.container.getAsync<AuditLogStore>(AuditLogStore);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const createProfile = (who: TestAccount = owner): Promise<string> => createProfileAs(api, who);

  const seen = (profileId: string, name: string, overrides: Partial<DeviceSighting> = {}) =>
    sightings.record([
      {
        profileId,
        name,
        identification: 'doh_path',
        transport: 'doh',
        seenAt: api.clock.now(),
        ...overrides,
      },
    ]);

  const devicesPath = (profileId: string) => `${api.url}/v1/profiles/${profileId}/devices`;

  const devicePath = (profileId: string, deviceId: string) =>
    `${devicesPath(profileId)}/${encodeURIComponent(deviceId)}`;

  const listOf = async (profileId: string, query = '', who: TestAccount = owner) => {
    const answer = await send(`${devicesPath(profileId)}${query}`, { headers: who.auth });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { devices: DeviceBody[]; next_cursor: string | null };
  };

  const deviceOf = async (profileId: string, deviceId: string) => {
    const answer = await send(devicePath(profileId, deviceId), { headers: owner.auth });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as DeviceBody;
  };

  const patch = (profileId: string, deviceId: string, body: object, headers = owner.auth) =>
    send(devicePath(profileId, deviceId), { method: 'PATCH', headers, body });

  const forget = (profileId: string, deviceId: string, headers = owner.auth) =>
    send(devicePath(profileId, deviceId), { method: 'DELETE', headers });

  const fieldsOf = (answer: RawAnswer) =>
    (problemOf(answer).errors as { field: string }[]).map((error) => error.field);

  const accountOf = async (who: TestAccount) => {
    const me = await send(`${api.url}/v1/auth/me`, { headers: who.auth });
    return (me.json as { account: { id: string; org_id: string } }).account;
  };

  const etagOf = async (profileId: string) =>
    (await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth })).headers.etag;

  const suspend = (profileId: string) => suspendProfile(api, owner, profileId);
  return {
    /** Where the server keeps its data: the memory store counts no queries. */
    storage,
    get api(): ApiHarness {
      return api;
    },
    get owner(): TestAccount {
      return owner;
    },
    get stranger(): TestAccount {
      return stranger;
    },
    get sightings(): DeviceSightings {
      return sightings;
    },
    get auditLog(): AuditLogStore {
      return auditLog;
    },
    createProfile,
    seen,
    devicesPath,
    devicePath,
    listOf,
    deviceOf,
    patch,
    forget,
    fieldsOf,
    accountOf,
    etagOf,
    suspend,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type DevicesFixture = ReturnType<typeof useDevicesFixture>;
