import { deviceIdOf } from '@svc/domain';
import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { DEVICE_FIELDS, type DevicesFixture, MINUTE, sha256 } from './devices.fixture.js';

/** Devices recorded from sightings, and their list (spec 4.3). */
export function deviceSightings(fx: DevicesFixture): void {
  const { createProfile, seen, devicesPath, listOf, deviceOf, etagOf } = fx;
  it('records sightings as devices: sanitised name, stable id per name, first and last seen, last transport', async () => {
    const profileId = await createProfile();
    const first = fx.api.clock.now();
    await seen(profileId, 'Living-Room-TV');
    fx.api.clock.advance(MINUTE);
    await fx.sightings.record([
      {
        profileId,
        name: '  living-room-tv ',
        identification: 'sni',
        transport: 'dot',
        seenAt: fx.api.clock.now(),
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
      queries_24h: fx.storage === 'memory' ? null : 0,
      blocked_24h: fx.storage === 'memory' ? null : 0,
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
    const now = fx.api.clock.now();
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
      fx.api.clock.advance(1_000);
    }
    const first = await listOf(profileId, '?limit=2');
    expect(first.devices.map((device) => device.id)).toEqual(['charlie', 'bravo']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await listOf(profileId, `?limit=2&cursor=${first.next_cursor}`);
    expect(rest).toEqual({ devices: [expect.objectContaining({ id: 'alpha' })], next_cursor: null });
    expectProblem(
      await send(`${devicesPath(profileId)}?cursor=x${first.next_cursor}`, { headers: fx.owner.auth }),
      400,
      'invalid_cursor',
    );
    const elsewhere = await createProfile();
    expectProblem(
      await send(`${devicesPath(elsewhere)}?cursor=${first.next_cursor}`, { headers: fx.owner.auth }),
      400,
      'invalid_cursor',
    );
    expect((await send(`${devicesPath(profileId)}?limit=201`, { headers: fx.owner.auth })).status).toBe(422);
    // Seen again: it moves to the front.
    await seen(profileId, 'alpha');
    expect((await listOf(profileId)).devices.map((device) => device.id)).toEqual([
      'alpha',
      'charlie',
      'bravo',
    ]);
  });
}
