import { deviceIdOf } from '@svc/domain';
import { expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { type DevicesFixture, MINUTE, sha256 } from './devices.fixture.js';

/** PATCH and DELETE of a device, their audit, and deleted profiles (spec 4.3, 6.2). */
export function deviceChanges(fx: DevicesFixture): void {
  const {
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
  } = fx;
  it('PATCH sets display name, kind and notes; absent fields stay; null or empty clears (4.3.1, 4.3.5)', async () => {
    const profileId = await createProfile();
    await seen(profileId, 'Lounge TV');
    const id = deviceIdOf('lounge tv', sha256);
    const set = await patch(
      profileId,
      id,
      { display_name: '  Big screen ', kind: 'tv', notes: 'Wall-mounted.' },
      fx.owner.auth,
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
    const counted = fx.storage === 'memory' ? null : 0;
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
    expectProblem(await send(devicePath(profileId, 'nothing'), { headers: fx.owner.auth }), 404, 'not_found');
    expectProblem(await patch(profileId, 'nothing', { kind: 'tv' }), 404, 'not_found');
    expectProblem(await forget(profileId, 'nothing'), 404, 'not_found');
    const long = await send(devicePath(profileId, 'x'.repeat(65)), { headers: fx.owner.auth });
    expectProblem(long, 422, 'validation_failed');
    expect(fieldsOf(long)).toEqual(['deviceId']);
  });

  it('audits PATCH as device.update and DELETE as device.forget, with actor, target, client and request id (6.2)', async () => {
    const profileId = await createProfile();
    await seen(profileId, 'office-pc');
    const account = await accountOf(fx.owner);
    const tokens = await send(`${fx.api.url}/v1/tokens`, { headers: fx.owner.auth });
    const tokenId = (tokens.json as { tokens: { id: string }[] }).tokens[0]?.id;
    const before = (await fx.auditLog.recent(account.org_id, 100)).length;

    const updated = await patch(profileId, 'office-pc', { kind: 'laptop', notes: 'desk' });
    expect(updated.status).toBe(200);
    const session = { cookie: `svc_session=${fx.owner.cookie}` };
    const renamed = await patch(profileId, 'office-pc', { display_name: 'Work' }, session);
    expect(renamed.status, renamed.text).toBe(200);
    const forgotten = await forget(profileId, 'office-pc');
    expect(forgotten.status).toBe(204);

    const entries = await fx.auditLog.recent(account.org_id, 100);
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
    const firstSeen = fx.api.clock.now();
    await seen(profileId, 'tablet');
    await patch(profileId, 'tablet', { display_name: 'Tab', kind: 'phone', notes: 'n' });
    const removed = await forget(profileId, 'tablet');
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expectProblem(await send(devicePath(profileId, 'tablet'), { headers: fx.owner.auth }), 404, 'not_found');
    expect((await listOf(profileId)).devices).toEqual([]);
    expectProblem(await forget(profileId, 'tablet'), 404, 'not_found');

    fx.api.clock.advance(5 * MINUTE);
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
    const deleted = await send(`${fx.api.url}/v1/profiles/${profileId}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(deleted.status).toBe(204);
    await expect(seen(profileId, 'phone')).resolves.toBeUndefined();
    expectProblem(await send(devicesPath(profileId), { headers: fx.owner.auth }), 404, 'not_found');
  });
}
