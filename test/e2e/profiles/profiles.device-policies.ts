import { DeviceSightings } from '@svc/domain';
import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { ProfilesFixture } from './profiles.fixture.js';

const HOMEWORK = { name: 'homework', windows: [{ days: ['mon', 'wed'], start: '16:00', end: '18:00' }] };
const NIGHT = { name: 'night', windows: [{ days: ['sun', 'mon'], start: '21:00', end: '07:00' }] };

/** Issue 38's device policies and pauses (ADR 0044): kept on the device, published in the profile's documents. */
export function profileDevicePolicies(fx: ProfilesFixture): void {
  const url = (id: string, tail: string) => `${fx.api.url}/v1/profiles/${id}/${tail}`;
  const sight = async (profileId: string, name: string) => {
    const sightings = await fx.api.container.getAsync<DeviceSightings>(DeviceSightings);
    await sightings.record([
      { profileId, name, identification: 'doh_path', transport: 'doh', seenAt: fx.api.clock.now() },
    ]);
  };
  /** A profile with the two schedules and a device a resolver saw. */
  const profileWithDevice = async () => {
    const { profile } = await fx.create();
    const schedules = await send(url(profile.id, 'schedules'), {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { schedules: [HOMEWORK, NIGHT] },
    });
    expect(schedules.status, schedules.text).toBe(200);
    await sight(profile.id, 'kids-tablet');
    return profile;
  };
  const putPolicy = (id: string, body: object, headers: Record<string, string> = {}, who = fx.owner) =>
    send(url(id, 'devices/kids-tablet/policy'), {
      method: 'PUT',
      headers: { ...who.auth, ...headers },
      body,
    });
  const getPolicy = (id: string, who = fx.owner) =>
    send(url(id, 'devices/kids-tablet/policy'), { headers: who.auth });
  const pause = (id: string, minutes: number, who = fx.owner) =>
    send(url(id, 'devices/kids-tablet/pause'), { method: 'POST', headers: who.auth, body: { minutes } });
  const documentAt = (id: string, version: number) =>
    fx.documentsOf(id).find((document) => document.version === version);

  it('stores a device policy, reads it back and publishes the device in the edge document', async () => {
    const profile = await profileWithDevice();
    expect((await getPolicy(profile.id)).json).toEqual({});
    const policy = {
      rules: { deny: ['games.example'], allow: ['school.example'] },
      parental: { services: ['youtube'], categories: ['dating'] },
      bedtime: 'night',
      assignments: [{ target: { kind: 'service', id: 'tiktok' }, schedule: 'homework', mode: 'only_during' }],
    };
    const put = await putPolicy(profile.id, policy, { 'if-match': '"2"' });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.etag).toBe('"3"');
    expect(put.json).toEqual(policy);
    const read = await getPolicy(profile.id);
    expect(read.json).toEqual(policy);
    expect(read.headers.etag).toBe('"3"');
    await expect.poll(() => documentAt(profile.id, 3)).toMatchObject({ devices: { 'kids-tablet': policy } });
    // `{}` inherits everything again: the device leaves the document.
    expect((await putPolicy(profile.id, {})).status).toBe(200);
    await expect.poll(() => documentAt(profile.id, 4)).toMatchObject({ devices: {} });
  });

  it('pauses a device (paused_until published with its policy) and resumes it; 204 unchanged when not paused', async () => {
    const profile = await profileWithDevice();
    const now = fx.api.clock.now().getTime();
    const paused = await pause(profile.id, 30);
    expect(paused.status, paused.text).toBe(200);
    const pausedUntil = new Date(now + 30 * 60_000).toISOString();
    expect(paused.json).toEqual({ paused_until: pausedUntil });
    expect(paused.headers.etag).toBe('"3"');
    await expect
      .poll(() => documentAt(profile.id, 3))
      .toMatchObject({ devices: { 'kids-tablet': { paused_until: pausedUntil } } });
    const resumed = await send(url(profile.id, 'devices/kids-tablet/pause'), {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(resumed.status).toBe(204);
    expect(resumed.headers.etag).toBe('"4"');
    await expect.poll(() => documentAt(profile.id, 4)).toMatchObject({ devices: {} });
    const again = await send(url(profile.id, 'devices/kids-tablet/pause'), {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(again.status).toBe(204);
    expect(again.headers.etag).toBe('"4"');
    const log = await send(`${fx.api.url}/v1/auth/audit`, { headers: fx.owner.auth });
    const entries = (log.json as { entries: { action: string; target: string }[] }).entries;
    expect(
      entries
        .filter((entry) => entry.target === `profiles/${profile.id}/devices/kids-tablet`)
        .map((entry) => entry.action),
    ).toEqual(['device.resumed', 'device.paused']);
    for (const minutes of [0, 1441])
      expectProblem(await pause(profile.id, minutes), 422, 'validation_failed');
  });

  it('refuses schedules the profile lacks and services, categories or lists the catalogues lack with 422 at each field', async () => {
    const profile = await profileWithDevice();
    const answer = await putPolicy(profile.id, {
      parental: { services: ['no-such-service'], categories: ['no-such-category'] },
      bedtime: 'weekend',
      assignments: [
        { target: { kind: 'list', id: 65000 }, schedule: 'weekend', mode: 'only_during' },
        { target: { kind: 'service', id: 'youtube' }, schedule: 'homework', mode: 'only_during' },
      ],
    });
    expectProblem(answer, 422, 'validation_failed');
    expect((problemOf(answer).errors as { field: string }[]).map((error) => error.field).sort()).toEqual([
      'assignments.0.schedule',
      'assignments.0.target.id',
      'bedtime',
      'parental.categories.0',
      'parental.services.0',
    ]);
    expect((await getPolicy(profile.id)).json).toEqual({});
    expect(
      (await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth })).json,
    ).toMatchObject({ version: 2 });
  });

  it('refuses to remove a schedule a device policy names with 422 naming it', async () => {
    const profile = await profileWithDevice();
    expect((await putPolicy(profile.id, { bedtime: 'night' })).status).toBe(200);
    const removal = await send(url(profile.id, 'schedules'), {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { schedules: [HOMEWORK] },
    });
    expectProblem(removal, 422, 'validation_failed');
    expect(JSON.stringify(problemOf(removal).errors)).toContain('night');
  });

  it('replays a repeated Idempotency-Key; 412 for a stale If-Match; forgetting the device removes its policy', async () => {
    const profile = await profileWithDevice();
    const headers = { 'idempotency-key': `device-policy-${Math.random()}` };
    const first = await putPolicy(profile.id, { parental: 'off' }, headers);
    const again = await putPolicy(profile.id, { parental: 'off' }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expectProblem(
      await putPolicy(profile.id, { bedtime: null }, { 'if-match': '"1"' }),
      412,
      'version_mismatch',
    );
    expect((await getPolicy(profile.id)).json).toEqual({ parental: 'off' });
    const forgotten = await send(url(profile.id, 'devices/kids-tablet'), {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(forgotten.status).toBe(204);
    expectProblem(await getPolicy(profile.id), 404, 'not_found');
    await sight(profile.id, 'kids-tablet');
    expect((await getPolicy(profile.id)).json).toEqual({});
  });

  it('answers 404 for an unknown device or another organisation’s, 403 to a read-only token, 401 without one', async () => {
    const profile = await profileWithDevice();
    expectProblem(
      await send(url(profile.id, 'devices/no-such-device/policy'), { headers: fx.owner.auth }),
      404,
      'not_found',
    );
    expectProblem(
      await send(url(profile.id, 'devices/no-such-device/pause'), {
        method: 'POST',
        headers: fx.owner.auth,
        body: { minutes: 5 },
      }),
      404,
      'not_found',
    );
    expectProblem(await getPolicy(profile.id, fx.stranger), 404, 'not_found');
    expectProblem(await putPolicy(profile.id, { parental: 'off' }, {}, fx.stranger), 404, 'not_found');
    expectProblem(await pause(profile.id, 5, fx.stranger), 404, 'not_found');
    const reader = await createAccount(fx.api, ['profiles:read']);
    expectProblem(await putPolicy(profile.id, { parental: 'off' }, {}, reader), 403, 'insufficient_scope');
    expectProblem(await pause(profile.id, 5, reader), 403, 'insufficient_scope');
    expect((await send(url(profile.id, 'devices/kids-tablet/policy'))).status).toBe(401);
    expect((await getPolicy(profile.id)).json).toEqual({});
  });
}
