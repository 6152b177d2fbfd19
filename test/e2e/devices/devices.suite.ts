import { createHash } from 'node:crypto';
import {
  AuditLogStore,
  type DeviceSighting,
  DeviceSightings,
  deviceIdOf,
  type ProfileRecord,
  UnitOfWork,
} from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';

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

const DEVICE_FIELDS = [
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

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const MINUTE = 60_000;

/**
 * Devices through HTTP (spec 2.5, 3, 4.3, 6.2, 7): devices appear from resolvers' sightings (recorded through
 * the DeviceSightings binding, as the edge path does), are listed most recently seen first, renamed, kinded,
 * annotated and forgotten with audit entries, refused on suspended profiles and invisible to other
 * organisations.
 */
export function runDevicesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`devices through HTTP on ${storage} (spec 2.5, 4.3)`, () => {
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

    const createProfile = async (who: TestAccount = owner): Promise<string> => {
      const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body: {} });
      expect(answer.status).toBe(201);
      return (answer.json as { id: string }).id;
    };
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
    const suspend = async (profileId: string) => {
      const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
      const { org_id: orgId } = await accountOf(owner);
      await uow.run(async (tx) => {
        const record = (await tx.profiles.find(orgId, profileId, { forUpdate: true })) as ProfileRecord;
        await tx.profiles.save({ ...record, suspended: true });
      });
    };

    it('records sightings as devices: sanitised name, stable id per name, first and last seen, last transport', async () => {
      const profileId = await createProfile();
      const first = api.clock.now();
      await seen(profileId, 'Living-Room-TV');
      api.clock.advance(MINUTE);
      await sightings.record([
        {
          profileId,
          name: '  living-room-tv ',
          identification: 'sni',
          transport: 'dot',
          seenAt: api.clock.now(),
        },
        { profileId, name: 'Kids iPad', identification: 'doh_path', transport: 'doh3', seenAt: first },
      ]);
      const { devices, next_cursor } = await listOf(profileId);
      expect(next_cursor).toBeNull();
      expect(devices.map((device) => device.id)).toEqual(['living-room-tv', deviceIdOf('kids ipad', sha256)]);
      const [tv, ipad] = devices;
      expect(Object.keys(tv ?? {}).sort()).toEqual(DEVICE_FIELDS);
      expect(tv).toEqual({
        id: 'living-room-tv',
        name: 'living-room-tv',
        display_name: null,
        label: 'living-room-tv',
        kind: 'other',
        notes: '',
        identification: 'sni',
        transport_last: 'dot',
        first_seen: first.toISOString(),
        last_seen: new Date(first.getTime() + MINUTE).toISOString(),
        // Counts come from the columnar store the engines have (none counted here); memory has none: null.
        queries_24h: storage === 'memory' ? null : 0,
        blocked_24h: storage === 'memory' ? null : 0,
      });
      expect(ipad).toMatchObject({
        id: expect.stringMatching(/^~[0-9a-f]{24}$/),
        name: 'kids ipad',
        label: 'kids ipad',
        transport_last: 'doh3',
      });
      expect(await deviceOf(profileId, 'living-room-tv')).toEqual(tv);
      // Recording devices is not a profile write.
      expect(await etagOf(profileId)).toBe('"1"');
    });

    it('labels a nameless device with its id, and keeps first_seen earliest and last_seen latest out of order', async () => {
      const profileId = await createProfile();
      const now = api.clock.now();
      await seen(profileId, '📱', { identification: 'unknown', transport: null });
      const nameless = deviceIdOf('', sha256);
      expect(await deviceOf(profileId, nameless)).toMatchObject({
        id: nameless,
        name: '',
        label: nameless,
        identification: 'unknown',
        transport_last: null,
      });
      await seen(profileId, '', { seenAt: new Date(now.getTime() - 10 * MINUTE), transport: 'doq' });
      expect(await deviceOf(profileId, nameless)).toMatchObject({
        first_seen: new Date(now.getTime() - 10 * MINUTE).toISOString(),
        last_seen: now.toISOString(),
        transport_last: null,
      });
      await expect(seen('zz9zz9', 'ghost')).resolves.toBeUndefined();
    });

    it('pages most recently seen first with sealed cursors', async () => {
      const profileId = await createProfile();
      for (const name of ['alpha', 'bravo', 'charlie']) {
        await seen(profileId, name);
        api.clock.advance(1_000);
      }
      const first = await listOf(profileId, '?limit=2');
      expect(first.devices.map((device) => device.id)).toEqual(['charlie', 'bravo']);
      expect(first.next_cursor).toEqual(expect.any(String));
      const rest = await listOf(profileId, `?limit=2&cursor=${first.next_cursor}`);
      expect(rest).toEqual({ devices: [expect.objectContaining({ id: 'alpha' })], next_cursor: null });
      expectProblem(
        await send(`${devicesPath(profileId)}?cursor=x${first.next_cursor}`, { headers: owner.auth }),
        400,
        'invalid_cursor',
      );
      const elsewhere = await createProfile();
      expectProblem(
        await send(`${devicesPath(elsewhere)}?cursor=${first.next_cursor}`, { headers: owner.auth }),
        400,
        'invalid_cursor',
      );
      expect((await send(`${devicesPath(profileId)}?limit=201`, { headers: owner.auth })).status).toBe(422);
      // Seen again: it moves to the front.
      await seen(profileId, 'alpha');
      expect((await listOf(profileId)).devices.map((device) => device.id)).toEqual([
        'alpha',
        'charlie',
        'bravo',
      ]);
    });

    it('PATCH sets display name, kind and notes; absent fields stay; null or empty clears (4.3.1, 4.3.5)', async () => {
      const profileId = await createProfile();
      await seen(profileId, 'Lounge TV');
      const id = deviceIdOf('lounge tv', sha256);
      const set = await patch(
        profileId,
        id,
        { display_name: '  Big screen ', kind: 'tv', notes: 'Wall-mounted.' },
        owner.auth,
      );
      expect(set.status, set.text).toBe(200);
      expect(set.json).toMatchObject({
        id,
        name: 'lounge tv',
        display_name: 'Big screen',
        label: 'Big screen',
        kind: 'tv',
        notes: 'Wall-mounted.',
        queries_24h: null,
        blocked_24h: null,
      });
      // A PATCH answers null counts (spec 4.3); a read has them where a columnar store counts.
      const counted = storage === 'memory' ? null : 0;
      expect(await deviceOf(profileId, id)).toEqual({
        ...(set.json as object),
        queries_24h: counted,
        blocked_24h: counted,
      });

      const kindOnly = await patch(profileId, id, { kind: 'laptop' });
      expect(kindOnly.json).toMatchObject({
        display_name: 'Big screen',
        kind: 'laptop',
        notes: 'Wall-mounted.',
      });
      const cleared = await patch(profileId, id, { display_name: null, notes: '' });
      expect(cleared.json).toMatchObject({
        display_name: null,
        label: 'lounge tv',
        kind: 'laptop',
        notes: '',
      });
      await patch(profileId, id, { display_name: 'Again', notes: 'n' });
      const clearedAgain = await patch(profileId, id, { display_name: '', notes: null });
      expect(clearedAgain.json).toMatchObject({ display_name: null, notes: '' });
      // The id never changes (4.3.2), and the profile's version stays.
      expect((await listOf(profileId)).devices.map((device) => device.id)).toEqual([id]);
      expect(await etagOf(profileId)).toBe('"1"');
    });

    it.each([
      [{ kind: 'fridge' }, 'kind', /phone, laptop, tv, router, other/],
      [{ kind: null }, 'kind', /phone/],
      [{ display_name: 'x'.repeat(65) }, 'display_name', /64/],
      [{ display_name: 42 }, 'display_name', /string or null/],
      [{ notes: 'x'.repeat(1001) }, 'notes', /1000/],
      [{ label: 'mine' }, 'body', /label/],
    ])('PATCH %j is 422 validation_failed naming %s, and changes nothing', async (body, field, message) => {
      const profileId = await createProfile();
      await seen(profileId, 'phone');
      const answer = await patch(profileId, 'phone', body);
      expectProblem(answer, 422, 'validation_failed');
      const error = (problemOf(answer).errors as { field: string; message: string }[]).find(
        (entry) => entry.field === field,
      );
      expect(error?.message, answer.text).toMatch(message);
      expect(await deviceOf(profileId, 'phone')).toMatchObject({
        display_name: null,
        kind: 'other',
        notes: '',
      });
    });

    it('answers 404 for an unknown device and 422 naming deviceId for one over 64 characters', async () => {
      const profileId = await createProfile();
      expectProblem(await send(devicePath(profileId, 'nothing'), { headers: owner.auth }), 404, 'not_found');
      expectProblem(await patch(profileId, 'nothing', { kind: 'tv' }), 404, 'not_found');
      expectProblem(await forget(profileId, 'nothing'), 404, 'not_found');
      const long = await send(devicePath(profileId, 'x'.repeat(65)), { headers: owner.auth });
      expectProblem(long, 422, 'validation_failed');
      expect(fieldsOf(long)).toEqual(['deviceId']);
    });

    it('audits PATCH as device.update and DELETE as device.forget, with actor, target, client and request id (6.2)', async () => {
      const profileId = await createProfile();
      await seen(profileId, 'office-pc');
      const account = await accountOf(owner);
      const tokens = await send(`${api.url}/v1/tokens`, { headers: owner.auth });
      const tokenId = (tokens.json as { tokens: { id: string }[] }).tokens[0]?.id;
      const before = (await auditLog.recent(account.org_id, 100)).length;

      const updated = await patch(profileId, 'office-pc', { kind: 'laptop', notes: 'desk' });
      expect(updated.status).toBe(200);
      const session = { cookie: `svc_session=${owner.cookie}` };
      const renamed = await patch(profileId, 'office-pc', { display_name: 'Work' }, session);
      expect(renamed.status, renamed.text).toBe(200);
      const forgotten = await forget(profileId, 'office-pc');
      expect(forgotten.status).toBe(204);

      const entries = await auditLog.recent(account.org_id, 100);
      expect(entries).toHaveLength(before + 3);
      const [forgetEntry, renameEntry, updateEntry] = entries;
      const target = `profiles/${profileId}/devices/office-pc`;
      expect(updateEntry).toMatchObject({
        orgId: account.org_id,
        actor: `token:${tokenId}`,
        action: 'device.update',
        target,
        details: {
          profile_id: profileId,
          device_id: 'office-pc',
          changed: { kind: 'laptop', notes: 'desk' },
        },
        clientIp: '127.0.0.1',
        requestId: updated.headers['x-request-id'],
      });
      expect(renameEntry).toMatchObject({
        actor: `account:${account.id}`,
        action: 'device.update',
        details: { changed: { display_name: 'Work' } },
        requestId: renamed.headers['x-request-id'],
      });
      expect(forgetEntry).toMatchObject({
        actor: `token:${tokenId}`,
        action: 'device.forget',
        target,
        details: { profile_id: profileId, device_id: 'office-pc', name: 'office-pc', display_name: 'Work' },
        requestId: forgotten.headers['x-request-id'],
      });
    });

    it('DELETE forgets the device: 204, gone, and seen again it is new without name, kind or notes (spec 3)', async () => {
      const profileId = await createProfile();
      const firstSeen = api.clock.now();
      await seen(profileId, 'tablet');
      await patch(profileId, 'tablet', { display_name: 'Tab', kind: 'phone', notes: 'n' });
      const removed = await forget(profileId, 'tablet');
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expectProblem(await send(devicePath(profileId, 'tablet'), { headers: owner.auth }), 404, 'not_found');
      expect((await listOf(profileId)).devices).toEqual([]);
      expectProblem(await forget(profileId, 'tablet'), 404, 'not_found');

      api.clock.advance(5 * MINUTE);
      await seen(profileId, 'Tablet', { transport: 'doq', identification: 'sni' });
      const again = await deviceOf(profileId, 'tablet');
      expect(again).toMatchObject({
        display_name: null,
        label: 'tablet',
        kind: 'other',
        notes: '',
        transport_last: 'doq',
        first_seen: new Date(firstSeen.getTime() + 5 * MINUTE).toISOString(),
      });
      expect(await etagOf(profileId)).toBe('"1"');
    });

    it('removes a deleted profile’s devices, and drops later sightings of it', async () => {
      const profileId = await createProfile();
      await seen(profileId, 'phone');
      const deleted = await send(`${api.url}/v1/profiles/${profileId}`, {
        method: 'DELETE',
        headers: owner.auth,
      });
      expect(deleted.status).toBe(204);
      await expect(seen(profileId, 'phone')).resolves.toBeUndefined();
      expectProblem(await send(devicesPath(profileId), { headers: owner.auth }), 404, 'not_found');
    });

    it('refuses PATCH and DELETE on a suspended profile with 409 profile_suspended; reads still work (7)', async () => {
      const profileId = await createProfile();
      await seen(profileId, 'console');
      const { org_id: orgId } = await accountOf(owner);
      const before = (await auditLog.recent(orgId, 100)).length;
      await suspend(profileId);
      expectProblem(await patch(profileId, 'console', { kind: 'tv' }), 409, 'profile_suspended');
      expectProblem(await forget(profileId, 'console'), 409, 'profile_suspended');
      expect(await deviceOf(profileId, 'console')).toMatchObject({ kind: 'other' });
      expect((await listOf(profileId)).devices).toHaveLength(1);
      expect(await auditLog.recent(orgId, 100)).toHaveLength(before);
    });

    it('answers 404 for another organisation’s profile or device on every route, and changes nothing (1.9)', async () => {
      const profileId = await createProfile();
      await seen(profileId, 'shared-tv');
      const theirs = await createProfile(stranger);
      const answers = await Promise.all([
        send(devicesPath(profileId), { headers: stranger.auth }),
        send(devicePath(profileId, 'shared-tv'), { headers: stranger.auth }),
        patch(profileId, 'shared-tv', { kind: 'tv' }, stranger.auth),
        forget(profileId, 'shared-tv', stranger.auth),
        // The owner's device id under the stranger's own profile is not theirs either.
        send(devicePath(theirs, 'shared-tv'), { headers: stranger.auth }),
        patch(theirs, 'shared-tv', { kind: 'tv' }, stranger.auth),
        forget(theirs, 'shared-tv', stranger.auth),
      ]);
      for (const answer of answers) expectProblem(answer, 404, 'not_found');
      expect(await deviceOf(profileId, 'shared-tv')).toMatchObject({ kind: 'other' });
    });

    it('needs profiles:read to read and profiles:write to change', async () => {
      const reader = await createAccount(api, ['profiles:read']);
      const session = { cookie: `svc_session=${reader.cookie}` };
      const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: session, body: {} });
      const profileId = (created.json as { id: string }).id;
      await seen(profileId, 'phone');
      expect((await send(devicesPath(profileId), { headers: reader.auth })).status).toBe(200);
      expect((await send(devicePath(profileId, 'phone'), { headers: reader.auth })).status).toBe(200);
      expectProblem(await patch(profileId, 'phone', { kind: 'tv' }, reader.auth), 403, 'insufficient_scope');
      expectProblem(await forget(profileId, 'phone', reader.auth), 403, 'insufficient_scope');
      expectProblem(await send(devicesPath(profileId)), 401, 'unauthenticated');
    });
  });
}
