import { type BusDelivery, MessageBus, type ProfileRecord, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';

interface ProfileBody {
  id: string;
  name: string;
  version: number;
  security: Record<string, boolean>;
  parental: { categories: string[]; services: string[]; safe_search: boolean; youtube_restricted: boolean };
  settings: Record<string, unknown>;
  endpoints: { doh: string; dot: string; dot_device: string; doq: string; ipv6: string[]; ipv4: string[] };
  suspended: boolean;
}

/** Profiles through HTTP: defaults, validation, versioning, If-Match, publication, isolation (spec 2.3, 4.2). */
export function runProfilesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `profiles through HTTP on ${storage} (spec 2.3, 4.1.3, 4.2, 6.3)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      let stranger: TestAccount;
      const published: BusDelivery[] = [];

      beforeAll(async () => {
        // An operator ECS cap below /32 for IPv4, so that the documents show it applied (spec 2.3).
        api = await startApi(storage, { SVC_ECS_CAP_V4: '20' });
        const bus = await api.container.getAsync<MessageBus>(MessageBus);
        await bus.subscribe('profiles.>', (delivery) => {
          published.push(delivery);
        });
        owner = await createAccount(api);
        stranger = await createAccount(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const create = async (body: object = {}, who: TestAccount = owner) => {
        const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body });
        expect(answer.status).toBe(201);
        return { answer, profile: answer.json as ProfileBody };
      };
      const patch = (
        id: string,
        body: object,
        headers: Record<string, string> = {},
        who: TestAccount = owner,
      ) =>
        send(`${api.url}/v1/profiles/${id}`, { method: 'PATCH', headers: { ...who.auth, ...headers }, body });
      const documentsOf = (id: string) =>
        published
          .filter((delivery) => delivery.subject === `profiles.${id}`)
          .map((delivery) => delivery.payload as Record<string, unknown>);

      it('creates a profile with the documented defaults, version 1 as ETag, Location and endpoints', async () => {
        const { answer, profile } = await create({ name: 'Home' });
        expect(profile.id).toMatch(/^[a-z0-9]{6}$/);
        expect(profile.id).not.toBe('000000');
        expect(answer.headers.etag).toBe('"1"');
        expect(answer.headers.location).toBe(`/v1/profiles/${profile.id}`);
        expect(profile).toMatchObject({ name: 'Home', version: 1, suspended: false });
        expect(profile.settings).toEqual({
          block_mode: 'nxdomain',
          logs_enabled: true,
          log_client_ip: true,
          log_domains: true,
          log_destination: 'cloud',
          retention_days: 30,
          cname_uncloak: true,
          cache_boost_ttl: 0,
          ecs: 'off',
          node_queue_hours: 0,
          log_region: 'ca',
        });
        expect(Object.keys(profile.security).sort()).toEqual([
          'cryptojacking',
          'csam',
          'dga',
          'idn_homograph',
          'nrd',
          'rebinding',
          'threat_intel',
          'typosquat',
        ]);
        expect(profile.parental).toEqual({
          categories: [],
          services: [],
          safe_search: false,
          youtube_restricted: false,
        });
        expect(profile.endpoints.doh).toBe(`https://dns.svc.example/${profile.id}`);
        expect(profile.endpoints.dot).toBe(`${profile.id}.dns.svc.example`);
        expect(profile.endpoints.dot_device).toBe(`<device>-${profile.id}.dns.svc.example`);
        expect(profile.endpoints.ipv6).toHaveLength(2);
        const hex = [...profile.id].map((char) => char.charCodeAt(0).toString(16).padStart(2, '0')).join('');
        const low = profile.endpoints.ipv6[0]
          ?.split('::')[1]
          ?.split(':')
          .map((group) => group.padStart(4, '0'))
          .join('');
        expect(low).toBe(hex);
        expect(profile.endpoints.ipv4).toEqual(['192.0.2.53', '198.51.100.53']);
        const documents = await eventually(
          async () => documentsOf(profile.id),
          (found) => found.length > 0,
        );
        expect(documents[0]).toMatchObject({ kind: 'profile', id: profile.id, version: 1, filtering: true });
      });

      it('keeps present fields and defaults the rest', async () => {
        const { profile } = await create({
          settings: { block_mode: 'refused', retention_days: 7 },
          security: { nrd: true },
        });
        expect(profile.settings).toMatchObject({
          block_mode: 'refused',
          retention_days: 7,
          log_destination: 'cloud',
        });
        expect(profile.security).toMatchObject({ nrd: true, threat_intel: true });
      });

      it.each([
        [{ settings: { block_mode: 'drop' } }, 'settings.block_mode', /nxdomain, refused, null, block-page/],
        [{ settings: { retention_days: 91 } }, 'settings.retention_days', /1 to 90/],
        [{ settings: { retention_days: 0 } }, 'settings.retention_days', /1 to 90/],
        [{ settings: { log_region: 'eu' } }, 'settings.log_region', /ca/],
        [{ settings: { node_queue_hours: 25 } }, 'settings.node_queue_hours', /0 to 24/],
        [{ settings: { ecs: 'partial' } }, 'settings.ecs', /off, anonymised, full/],
        [
          { settings: { log_destination: 'disk' } },
          'settings.log_destination',
          /cloud, self-hosted, both, none/,
        ],
        [{ security: { csam: 'yes' } }, 'security.csam', /true or false/],
        [{ parental: { services: ['Not Valid'] } }, 'parental.services.0', /\^\[a-z0-9-\]\{1,64\}\$/],
        [{ name: '' }, 'name', /empty/],
      ])('refuses %j with 422 validation_failed naming %s', async (body, field, message) => {
        const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body });
        expect(answer.status).toBe(422);
        const problem = problemOf(answer);
        expect(problem.code).toBe('validation_failed');
        const error = (problem.errors as { field: string; message: string }[]).find(
          (entry) => entry.field === field,
        );
        expect(error?.message).toMatch(message);
      });

      it('refuses unknown fields rather than ignoring them', async () => {
        const answer = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: owner.auth,
          body: { settings: { blockmode: 'refused' } },
        });
        expect(answer.status).toBe(422);
      });

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
        const fetched = await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth });
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
        const current = (await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth }))
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
        const mine = await createAccount(api);
        const ids: string[] = [];
        for (let n = 0; n < 3; n += 1) {
          ids.push((await create({ name: `p${n}` }, mine)).profile.id);
          api.clock.advance(1_000);
        }
        const first = await send(`${api.url}/v1/profiles?limit=2`, { headers: mine.auth });
        const page = first.json as { profiles: ProfileBody[]; next_cursor: string };
        expect(page.profiles.map((profile) => profile.name)).toEqual(['p2', 'p1']);
        const rest = await send(`${api.url}/v1/profiles?limit=2&cursor=${page.next_cursor}`, {
          headers: mine.auth,
        });
        expect(
          (rest.json as { profiles: ProfileBody[]; next_cursor: null }).profiles.map(
            (profile) => profile.name,
          ),
        ).toEqual(['p0']);
        const tampered = await send(`${api.url}/v1/profiles?cursor=x${page.next_cursor}`, {
          headers: mine.auth,
        });
        expect(problemOf(tampered).code).toBe('invalid_cursor');
        expect((await send(`${api.url}/v1/profiles?limit=201`, { headers: mine.auth })).status).toBe(422);
      });

      it('replaces the rules in one version bump, normalised (IDNA, lower case, no trailing dot) and published', async () => {
        const { profile } = await create();
        const put = await send(`${api.url}/v1/profiles/${profile.id}/rules`, {
          method: 'PUT',
          headers: { ...owner.auth, 'if-match': '"1"' },
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
        const read = await send(`${api.url}/v1/profiles/${profile.id}/rules`, { headers: owner.auth });
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
        const put = await send(`${api.url}/v1/profiles/${profile.id}/lists`, {
          method: 'PUT',
          headers: owner.auth,
          body: { lists: [1, 4, 1] },
        });
        expect(put.status).toBe(200);
        expect(put.json).toEqual({ lists: [1, 4] });
        expect(put.headers.etag).toBe('"2"');
        const unknown = await send(`${api.url}/v1/profiles/${profile.id}/lists`, {
          method: 'PUT',
          headers: owner.auth,
          body: { lists: [2, 65000] },
        });
        expect(unknown.status).toBe(422);
        expect(problemOf(unknown).code).toBe('unknown_list');
        expect(problemOf(unknown).errors).toEqual([
          { field: 'lists.1', message: expect.stringContaining('65000') },
        ]);
        const read = await send(`${api.url}/v1/profiles/${profile.id}/lists`, { headers: owner.auth });
        expect(read.json).toEqual({ lists: [1, 4] });
      });

      it('checks parental categories and services against the catalogues', async () => {
        const good = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: owner.auth,
          body: { parental: { categories: ['gambling'], services: ['youtube', 'tiktok'] } },
        });
        expect(good.status).toBe(201);
        const bad = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: owner.auth,
          body: { parental: { categories: ['knitting'], services: ['youtube', 'not-a-service'] } },
        });
        expect(bad.status).toBe(422);
        const fields = (problemOf(bad).errors as { field: string }[]).map((error) => error.field);
        expect(fields).toEqual(['parental.categories.0', 'parental.services.1']);
      });

      it('refuses a malformed pattern with 422 naming it and too many rules with 422 too_many_rules', async () => {
        const { profile } = await create();
        const bad = await send(`${api.url}/v1/profiles/${profile.id}/rules`, {
          method: 'PUT',
          headers: owner.auth,
          body: { deny: ['fine.example', 'not a name'], allow: [], rewrites: [] },
        });
        expect(bad.status).toBe(422);
        expect((problemOf(bad).errors as { field: string }[])[0]?.field).toBe('deny.1');
        const many = await send(`${api.url}/v1/profiles/${profile.id}/rules`, {
          method: 'PUT',
          headers: owner.auth,
          body: { deny: Array.from({ length: 1001 }, (_, n) => `host${n}.example`), allow: [], rewrites: [] },
        });
        expect(many.status).toBe(422);
        expect(problemOf(many).code).toBe('too_many_rules');
        const unchanged = await send(`${api.url}/v1/profiles/${profile.id}/rules`, { headers: owner.auth });
        expect(unchanged.json).toEqual({ deny: [], allow: [], rewrites: [] });
        expect(unchanged.headers.etag).toBe('"1"');
      });

      it('deletes a profile: 204, then 404, and the edge receives a tombstone', async () => {
        const { profile } = await create();
        const deleted = await send(`${api.url}/v1/profiles/${profile.id}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(deleted.status).toBe(204);
        expect((await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth })).status).toBe(
          404,
        );
        const documents = await eventually(
          async () => documentsOf(profile.id),
          (found) => found.some((document) => document.kind === 'tombstone'),
        );
        expect(documents.at(-1)).toMatchObject({ kind: 'tombstone', id: profile.id, version: 2 });
      });

      it('answers 404 for another organisation’s profile on every route, and leaves it unchanged', async () => {
        const { profile } = await create({ name: 'private' });
        const calls = [
          send(`${api.url}/v1/profiles/${profile.id}`, { headers: stranger.auth }),
          patch(profile.id, { name: 'taken' }, {}, stranger),
          send(`${api.url}/v1/profiles/${profile.id}`, { method: 'DELETE', headers: stranger.auth }),
        ];
        for (const answer of await Promise.all(calls)) {
          expect(answer.status).toBe(404);
          expect(problemOf(answer).code).toBe('not_found');
        }
        const list = await send(`${api.url}/v1/profiles`, { headers: stranger.auth });
        expect((list.json as { profiles: ProfileBody[] }).profiles.map((entry) => entry.id)).not.toContain(
          profile.id,
        );
        const mine = (await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth }))
          .json as ProfileBody;
        expect(mine).toMatchObject({ name: 'private', version: 1 });
      });

      it('enforces scopes: profiles:read may read but not write (403 insufficient_scope)', async () => {
        const reader = await createAccount(api, ['profiles:read']);
        expect((await send(`${api.url}/v1/profiles`, { headers: reader.auth })).status).toBe(200);
        const write = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: reader.auth,
          body: {},
        });
        expect(write.status).toBe(403);
        expect(problemOf(write).code).toBe('insufficient_scope');
        expect((await send(`${api.url}/v1/profiles`)).status).toBe(401);
      });

      it('grants no reading with profiles:write alone (spec 5.4), and the 403 says which scope to add', async () => {
        const writer = await createAccount(api, ['profiles:write']);
        const created = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: writer.auth,
          body: { name: 'write only' },
        });
        expect(created.status).toBe(201);
        const read = await send(`${api.url}/v1/profiles/${(created.json as ProfileBody).id}`, {
          headers: writer.auth,
        });
        expectProblem(read, 403, 'insufficient_scope');
        expect(problemOf(read).detail).toBe(
          'This operation needs the profiles:read scope. This token has profiles:write, which does not include reading: create a token with both profiles:read and profiles:write.',
        );
      });

      it('refuses writes to a suspended profile with 409 profile_suspended; reads still work', async () => {
        const { profile } = await create();
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const ownerOrg = (
          (await send(`${api.url}/v1/auth/me`, { headers: owner.auth })).json as {
            account: { org_id: string };
          }
        ).account.org_id;
        await uow.run(async (tx) => {
          const record = (await tx.profiles.find(ownerOrg, profile.id, { forUpdate: true })) as ProfileRecord;
          await tx.profiles.save({ ...record, suspended: true });
        });
        const write = await patch(profile.id, { name: 'nope' });
        expect(write.status).toBe(409);
        expect(problemOf(write).code).toBe('profile_suspended');
        const removal = await send(`${api.url}/v1/profiles/${profile.id}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(problemOf(removal).code).toBe('profile_suspended');
        const read = await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth });
        expect(read.status).toBe(200);
        expect((read.json as ProfileBody).suspended).toBe(true);
      });

      it('replays a profile creation repeated with the same Idempotency-Key', async () => {
        const headers = { ...owner.auth, 'idempotency-key': `profile-${Math.random()}` };
        const first = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers,
          body: { name: 'once' },
        });
        const again = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers,
          body: { name: 'once' },
        });
        expect(again.status).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.headers.etag).toBe(first.headers.etag);
        expect((again.json as ProfileBody).id).toBe((first.json as ProfileBody).id);
        const other = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers,
          body: { name: 'different' },
        });
        expect(problemOf(other).code).toBe('idempotency_key_reused');
      });
    },
  );
}
