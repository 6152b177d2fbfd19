import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import type { ProfileBody, ProfilesFixture } from './profiles.fixture.js';

/** PATCH, published documents, If-Match, concurrent writers and the list (spec 4.2, 7). */
export function profileUpdate(fx: ProfilesFixture): void {
  const { create, patch, documentsOf } = fx;
  it('merges a PATCH, bumps the version by one and publishes the new document', async () => {
    const { profile } = await create({ name: 'Kids', settings: { retention_days: 14 } });
    const changed = await patch(profile.id, {
      settings: { block_mode: 'null' },
      parental: { safe_search: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).toBe('"2"');
    const body = changed.json as ProfileBody;
    expect(body.version).toBe(2);
    expect(body.settings).toMatchObject({ block_mode: 'null', retention_days: 14 });
    expect(body.parental.safe_search).toBe(true);
    expect(body.name).toBe('Kids');
    const fetched = await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth });
    expect(fetched.headers.etag).toBe('"2"');
    expect(fetched.json).toEqual(body);
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 2,
    );
    expect(documents.map((document) => document.version)).toEqual([1, 2]);
  });

  it('publishes the ECS mode with the operator cap applied: anonymised /24 and /56, full /32 and /128, off /0 (spec 2.3)', async () => {
    const { profile } = await create({ settings: { ecs: 'anonymised' } });
    expect((await patch(profile.id, { settings: { ecs: 'full' } })).status).toBe(200);
    expect((await patch(profile.id, { settings: { ecs: 'off' } })).status).toBe(200);
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 3,
    );
    const operator_cap = { v4: 20, v6: 128 };
    expect(documents.map((document) => document.ecs)).toEqual([
      { mode: 'anonymised', operator_cap, source_prefix: { v4: 20, v6: 56 } },
      { mode: 'full', operator_cap, source_prefix: { v4: 20, v6: 128 } },
      { mode: 'off', operator_cap, source_prefix: { v4: 0, v6: 0 } },
    ]);
  });

  it('honours If-Match: a stale version is 412 and changes nothing; garbage is 400 bad_if_match', async () => {
    const { profile } = await create();
    expect((await patch(profile.id, { name: 'one' }, { 'if-match': '"1"' })).status).toBe(200);
    const stale = await patch(profile.id, { name: 'two' }, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    expect(problemOf(stale).code).toBe('version_mismatch');
    const current = (await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth }))
      .json as ProfileBody;
    expect(current).toMatchObject({ name: 'one', version: 2 });
    const garbage = await patch(profile.id, { name: 'three' }, { 'if-match': 'W/"2"' });
    expect(problemOf(garbage).code).toBe('bad_if_match');
  });

  it('serialises concurrent writers: no lost update, every version published once', async () => {
    const { profile } = await create();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => patch(profile.id, { settings: { cache_boost_ttl: n + 1 } })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const versions = answers.map((answer) => (answer.json as ProfileBody).version).sort((a, b) => a - b);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 9,
    );
    expect(documents.map((document) => document.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => patch(profile.id, { name: 'race' }, { 'if-match': '"9"' })),
    );
    expect(racing.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(racing.filter((answer) => answer.status === 412)).toHaveLength(4);
  });

  it('lists the organisation’s profiles newest first, paged with sealed cursors', async () => {
    const mine = await createAccount(fx.api);
    const ids: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      ids.push((await create({ name: `p${n}` }, mine)).profile.id);
      fx.api.clock.advance(1_000);
    }
    const first = await send(`${fx.api.url}/v1/profiles?limit=2`, { headers: mine.auth });
    const page = first.json as { profiles: ProfileBody[]; next_cursor: string };
    expect(page.profiles.map((profile) => profile.name)).toEqual(['p2', 'p1']);
    const rest = await send(`${fx.api.url}/v1/profiles?limit=2&cursor=${page.next_cursor}`, {
      headers: mine.auth,
    });
    expect(
      (rest.json as { profiles: ProfileBody[]; next_cursor: null }).profiles.map((profile) => profile.name),
    ).toEqual(['p0']);
    const tampered = await send(`${fx.api.url}/v1/profiles?cursor=x${page.next_cursor}`, {
      headers: mine.auth,
    });
    expect(problemOf(tampered).code).toBe('invalid_cursor');
    expect((await send(`${fx.api.url}/v1/profiles?limit=201`, { headers: mine.auth })).status).toBe(422);
  });
}
