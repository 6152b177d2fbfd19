import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import type { ProfilesFixture } from './profiles.fixture.js';

/** Rules, blocklists, parental catalogues, and deletion with its tombstone (spec 4.2, 4.5). */
export function profileRulesAndLists(fx: ProfilesFixture): void {
  const { create, documentsOf } = fx;
  it('replaces the rules in one version bump, normalised (IDNA, lower case, no trailing dot) and published', async () => {
    const { profile } = await create();
    const put = await send(`${fx.api.url}/v1/profiles/${profile.id}/rules`, {
      method: 'PUT',
      headers: { ...fx.owner.auth, 'if-match': '"1"' },
      body: {
        deny: ['Ads.Example.COM.', '=BÜCHER.example', '*.tracker.example', 'ads.example.com'],
        allow: ['good.example'],
        rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }],
      },
    });
    expect(put.status).toBe(200);
    expect(put.headers.etag).toBe('"2"');
    expect(put.json).toEqual({
      deny: ['ads.example.com', '=xn--bcher-kva.example', '*.tracker.example'],
      allow: ['good.example'],
      rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }],
    });
    const read = await send(`${fx.api.url}/v1/profiles/${profile.id}/rules`, { headers: fx.owner.auth });
    expect(read.json).toEqual(put.json);
    expect(read.headers.etag).toBe('"2"');
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 2,
    );
    const rules = documents.at(-1)?.rules as { deny: string[] } | undefined;
    expect(rules?.deny).toContain('=xn--bcher-kva.example');
  });

  it('sets enabled blocklists by id; unknown ids are 422 unknown_list and change nothing', async () => {
    const { profile } = await create();
    const put = await send(`${fx.api.url}/v1/profiles/${profile.id}/lists`, {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { lists: [1, 4, 1] },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ lists: [1, 4] });
    expect(put.headers.etag).toBe('"2"');
    const unknown = await send(`${fx.api.url}/v1/profiles/${profile.id}/lists`, {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { lists: [2, 65000] },
    });
    expect(unknown.status).toBe(422);
    expect(problemOf(unknown).code).toBe('unknown_list');
    expect(problemOf(unknown).errors).toEqual([
      { field: 'lists.1', message: expect.stringContaining('65000') },
    ]);
    const read = await send(`${fx.api.url}/v1/profiles/${profile.id}/lists`, { headers: fx.owner.auth });
    expect(read.json).toEqual({ lists: [1, 4] });
  });

  it('checks parental categories and services against the catalogues', async () => {
    const good = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { parental: { categories: ['gambling'], services: ['youtube', 'tiktok'] } },
    });
    expect(good.status).toBe(201);
    const bad = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { parental: { categories: ['knitting'], services: ['youtube', 'not-a-service'] } },
    });
    expect(bad.status).toBe(422);
    const fields = (problemOf(bad).errors as { field: string }[]).map((error) => error.field);
    expect(fields).toEqual(['parental.categories.0', 'parental.services.1']);
  });

  it('refuses a malformed pattern with 422 naming it and too many rules with 422 too_many_rules', async () => {
    const { profile } = await create();
    const bad = await send(`${fx.api.url}/v1/profiles/${profile.id}/rules`, {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { deny: ['fine.example', 'not a name'], allow: [], rewrites: [] },
    });
    expect(bad.status).toBe(422);
    expect((problemOf(bad).errors as { field: string }[])[0]?.field).toBe('deny.1');
    const many = await send(`${fx.api.url}/v1/profiles/${profile.id}/rules`, {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { deny: Array.from({ length: 1001 }, (_, n) => `host${n}.example`), allow: [], rewrites: [] },
    });
    expect(many.status).toBe(422);
    expect(problemOf(many).code).toBe('too_many_rules');
    const unchanged = await send(`${fx.api.url}/v1/profiles/${profile.id}/rules`, { headers: fx.owner.auth });
    expect(unchanged.json).toEqual({ deny: [], allow: [], rewrites: [] });
    expect(unchanged.headers.etag).toBe('"1"');
  });

  it('deletes a profile: 204, then 404, and the edge receives a tombstone', async () => {
    const { profile } = await create();
    const deleted = await send(`${fx.api.url}/v1/profiles/${profile.id}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(deleted.status).toBe(204);
    expect((await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth })).status).toBe(
      404,
    );
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.some((document) => document.kind === 'tombstone'),
    );
    expect(documents.at(-1)).toMatchObject({ kind: 'tombstone', id: profile.id, version: 2 });
  });
}
