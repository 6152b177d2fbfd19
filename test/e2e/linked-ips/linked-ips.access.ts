import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { LinkedIpBody, LinkedIpsFixture } from './linked-ips.fixture.js';

/** Tenant isolation, paths and scopes, and suspended profiles (spec 1.9, 5.4). */
export function linkedIpAccess(fx: LinkedIpsFixture): void {
  const { freshIp, createProfile, link, linked, listOf, etagOf, updateUrlOf, rotate, ddns, suspend } = fx;
  it('answers 404 for another organisation’s profile or link on every route, and changes nothing', async () => {
    const profileId = await createProfile();
    const slot = await linked(profileId, { ddns: true });
    const url = await updateUrlOf(profileId, slot.id);
    const path = `${fx.api.url}/v1/profiles/${profileId}/linked-ips`;
    const theirProfile = await createProfile(fx.stranger);
    const answers = await Promise.all([
      send(path, { headers: fx.stranger.auth }),
      link(profileId, { ip: freshIp() }, fx.stranger),
      send(`${path}/${slot.id}`, { headers: fx.stranger.auth }),
      send(`${path}/${slot.id}`, { method: 'DELETE', headers: fx.stranger.auth }),
      send(`${path}/${slot.id}/ddns`, { headers: fx.stranger.auth }),
      rotate(profileId, slot.id, fx.stranger),
      // The owner's link id under the stranger's own profile is not theirs either.
      send(`${fx.api.url}/v1/profiles/${theirProfile}/linked-ips/${slot.id}`, {
        method: 'DELETE',
        headers: fx.stranger.auth,
      }),
      send(`${fx.api.url}/v1/profiles/${theirProfile}/linked-ips/${slot.id}/ddns`, {
        headers: fx.stranger.auth,
      }),
    ]);
    for (const answer of answers) expectProblem(answer, 404, 'not_found');
    expect(await etagOf(profileId)).toBe('"2"');
    expect(await updateUrlOf(profileId, slot.id)).toBe(url);
    expect((await listOf(profileId)).linked_ips).toHaveLength(1);
  });

  it('checks path and scope: a malformed linkId is 422; profiles:read lists but may not read DDNS URLs', async () => {
    const profileId = await createProfile();
    const malformed = await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips/not-a-uuid`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expectProblem(malformed, 422, 'validation_failed');
    expect((problemOf(malformed).errors as { field: string }[])[0]?.field).toBe('linkId');
    const reader = await createAccount(fx.api, ['profiles:read']);
    // The reader's session holds every scope; its token only profiles:read.
    const session = { cookie: `svc_session=${reader.cookie}` };
    const created = await send(`${fx.api.url}/v1/profiles`, { method: 'POST', headers: session, body: {} });
    const theirs = (created.json as { id: string }).id;
    const path = `${fx.api.url}/v1/profiles/${theirs}/linked-ips`;
    const slot = await send(path, { method: 'POST', headers: session, body: { ddns: true } });
    expect(slot.status).toBe(201);
    const slotId = (slot.json as LinkedIpBody).id;
    expect((await send(path, { headers: reader.auth })).status).toBe(200);
    expect((await send(`${path}/${slotId}`, { headers: reader.auth })).status).toBe(200);
    expectProblem(
      await send(path, { method: 'POST', headers: reader.auth, body: { ddns: true } }),
      403,
      'insufficient_scope',
    );
    expectProblem(await send(`${path}/${slotId}/ddns`, { headers: reader.auth }), 403, 'insufficient_scope');
    expectProblem(
      await send(`${path}/${slotId}`, { method: 'DELETE', headers: reader.auth }),
      403,
      'insufficient_scope',
    );
    expectProblem(await send(path), 401, 'unauthenticated');
  });

  it('refuses every change to a suspended profile with 409 profile_suspended; reads still work', async () => {
    const profileId = await createProfile();
    const record = await linked(profileId, { ip: freshIp() });
    const slot = await linked(profileId, { ddns: true });
    const url = await updateUrlOf(profileId, slot.id);
    expect((await ddns(url, '198.51.100.200')).status).toBe(200);
    await suspend(profileId);
    expectProblem(await link(profileId, { ip: freshIp() }), 409, 'profile_suspended');
    expectProblem(
      await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
        method: 'DELETE',
        headers: fx.owner.auth,
      }),
      409,
      'profile_suspended',
    );
    expectProblem(await rotate(profileId, slot.id), 409, 'profile_suspended');
    expectProblem(await ddns(url, '198.51.100.201'), 409, 'profile_suspended');
    expectProblem(await ddns(url, '198.51.100.200'), 409, 'profile_suspended');
    expect((await listOf(profileId)).linked_ips).toHaveLength(2);
    expect(await updateUrlOf(profileId, slot.id)).toBe(url);
    expect(await etagOf(profileId)).toBe('"4"');
  });
}
