import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { DevicesFixture } from './devices.fixture.js';

/** Suspended profiles, tenant isolation and scopes (spec 1.9, 5.4, 7). */
export function deviceAccess(fx: DevicesFixture): void {
  const {
    createProfile,
    seen,
    devicesPath,
    devicePath,
    listOf,
    deviceOf,
    patch,
    forget,
    accountOf,
    suspend,
  } = fx;
  it('refuses PATCH and DELETE on a suspended profile with 409 profile_suspended; reads still work (7)', async () => {
    const profileId = await createProfile();
    await seen(profileId, 'console');
    const { org_id: orgId } = await accountOf(fx.owner);
    const before = (await fx.auditLog.recent(orgId, 100)).length;
    await suspend(profileId);
    expectProblem(await patch(profileId, 'console', { kind: 'tv' }), 409, 'profile_suspended');
    expectProblem(await forget(profileId, 'console'), 409, 'profile_suspended');
    expect(await deviceOf(profileId, 'console')).toMatchObject({ kind: 'other' });
    expect((await listOf(profileId)).devices).toHaveLength(1);
    expect(await fx.auditLog.recent(orgId, 100)).toHaveLength(before);
  });

  it('answers 404 for another organisation’s profile or device on every route, and changes nothing (1.9)', async () => {
    const profileId = await createProfile();
    await seen(profileId, 'shared-tv');
    const theirs = await createProfile(fx.stranger);
    const answers = await Promise.all([
      send(devicesPath(profileId), { headers: fx.stranger.auth }),
      send(devicePath(profileId, 'shared-tv'), { headers: fx.stranger.auth }),
      patch(profileId, 'shared-tv', { kind: 'tv' }, fx.stranger.auth),
      forget(profileId, 'shared-tv', fx.stranger.auth),
      // The owner's device id under the stranger's own profile is not theirs either.
      send(devicePath(theirs, 'shared-tv'), { headers: fx.stranger.auth }),
      patch(theirs, 'shared-tv', { kind: 'tv' }, fx.stranger.auth),
      forget(theirs, 'shared-tv', fx.stranger.auth),
    ]);
    for (const answer of answers) expectProblem(answer, 404, 'not_found');
    expect(await deviceOf(profileId, 'shared-tv')).toMatchObject({ kind: 'other' });
  });

  it('needs profiles:read to read and profiles:write to change', async () => {
    const reader = await createAccount(fx.api, ['profiles:read']);
    const session = { cookie: `svc_session=${reader.cookie}` };
    const created = await send(`${fx.api.url}/v1/profiles`, { method: 'POST', headers: session, body: {} });
    const profileId = (created.json as { id: string }).id;
    await seen(profileId, 'phone');
    expect((await send(devicesPath(profileId), { headers: reader.auth })).status).toBe(200);
    expect((await send(devicePath(profileId, 'phone'), { headers: reader.auth })).status).toBe(200);
    expectProblem(await patch(profileId, 'phone', { kind: 'tv' }, reader.auth), 403, 'insufficient_scope');
    expectProblem(await forget(profileId, 'phone', reader.auth), 403, 'insufficient_scope');
    expectProblem(await send(devicesPath(profileId)), 401, 'unauthenticated');
  });
}
