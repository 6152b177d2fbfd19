import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { suspendProfile } from '../../support/profiles.js';
import type { ProfileBody, ProfilesFixture } from './profiles.fixture.js';

/** Tenant isolation, scopes, suspension and idempotent creation (spec 1.9, 5.4, 7). */
export function profileAccess(fx: ProfilesFixture): void {
  const { create, patch } = fx;
  it('answers 404 for another organisation’s profile on every route, and leaves it unchanged', async () => {
    const { profile } = await create({ name: 'private' });
    const calls = [
      send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.stranger.auth }),
      patch(profile.id, { name: 'taken' }, {}, fx.stranger),
      send(`${fx.api.url}/v1/profiles/${profile.id}`, { method: 'DELETE', headers: fx.stranger.auth }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.status).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
    }
    const list = await send(`${fx.api.url}/v1/profiles`, { headers: fx.stranger.auth });
    expect((list.json as { profiles: ProfileBody[] }).profiles.map((entry) => entry.id)).not.toContain(
      profile.id,
    );
    const mine = (await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth }))
      .json as ProfileBody;
    expect(mine).toMatchObject({ name: 'private', version: 1 });
  });

  it('enforces scopes: profiles:read may read but not write (403 insufficient_scope)', async () => {
    const reader = await createAccount(fx.api, ['profiles:read']);
    expect((await send(`${fx.api.url}/v1/profiles`, { headers: reader.auth })).status).toBe(200);
    const write = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: reader.auth,
      body: {},
    });
    expect(write.status).toBe(403);
    expect(problemOf(write).code).toBe('insufficient_scope');
    expect((await send(`${fx.api.url}/v1/profiles`)).status).toBe(401);
  });

  it('grants no reading with profiles:write alone (spec 5.4), and the 403 says which scope to add', async () => {
    const writer = await createAccount(fx.api, ['profiles:write']);
    const created = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: writer.auth,
      body: { name: 'write only' },
    });
    expect(created.status).toBe(201);
    const read = await send(`${fx.api.url}/v1/profiles/${(created.json as ProfileBody).id}`, {
      headers: writer.auth,
    });
    expectProblem(read, 403, 'insufficient_scope');
    expect(problemOf(read).detail).toBe(
      'This operation needs the profiles:read scope. This token has profiles:write, which does not include reading: create a token with both profiles:read and profiles:write.',
    );
  });

  it('refuses writes to a suspended profile with 409 profile_suspended; reads still work', async () => {
    const { profile } = await create();
    await suspendProfile(fx.api, fx.owner, profile.id);
    const write = await patch(profile.id, { name: 'nope' });
    expect(write.status).toBe(409);
    expect(problemOf(write).code).toBe('profile_suspended');
    const removal = await send(`${fx.api.url}/v1/profiles/${profile.id}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(problemOf(removal).code).toBe('profile_suspended');
    const read = await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth });
    expect(read.status).toBe(200);
    expect((read.json as ProfileBody).suspended).toBe(true);
  });

  it('replays a profile creation repeated with the same Idempotency-Key', async () => {
    const headers = { ...fx.owner.auth, 'idempotency-key': `profile-${Math.random()}` };
    const first = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers,
      body: { name: 'once' },
    });
    const again = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers,
      body: { name: 'once' },
    });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((again.json as ProfileBody).id).toBe((first.json as ProfileBody).id);
    const other = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers,
      body: { name: 'different' },
    });
    expect(problemOf(other).code).toBe('idempotency_key_reused');
  });
}
