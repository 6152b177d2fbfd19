import {
  type BusDelivery,
  ddnsLookupOf,
  ddnsTokenOf,
  KeyedHash,
  MessageBus,
  type ProfileRecord,
  UnitOfWork,
} from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';

interface LinkedIpBody {
  id: string;
  ip: string | null;
  ddns: boolean;
  state: 'pending' | 'active';
  proof_url?: string;
  created_at: string;
  updated_at: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Linked IPv4 addresses and DDNS through HTTP (spec 1.5, 4.4, 4.13, 7; ROUTES.md): versioned profile writes
 * published to the edge, one profile per address anywhere, DDNS tokens that rotate, tenant isolation and
 * suspension. The API trusts the loopback proxy, so X-Forwarded-For plays callers from other addresses: a link
 * is sent from the address it links (proven, active) unless a test plays someone claiming another's address.
 */
export function runLinkedIpsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `linked IPs and DDNS through HTTP on ${storage} (spec 4.4, 4.13)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      let stranger: TestAccount;
      const published: BusDelivery[] = [];
      let nextAddress = 0;
      /** A documentation address (RFC 5737) no other test links. */
      const freshIp = () => {
        nextAddress += 1;
        return `203.0.113.${nextAddress}`;
      };

      beforeAll(async () => {
        api = await startApi(storage, { SVC_TRUST_PROXY: 'loopback' });
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

      const createProfile = async (who: TestAccount = owner): Promise<string> => {
        const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body: {} });
        expect(answer.status).toBe(201);
        return (answer.json as { id: string }).id;
      };
      /** A link sent from the address it names (proving it) unless `headers` say where it comes from. */
      const link = (
        profileId: string,
        body: { ip?: string; ddns?: boolean },
        who: TestAccount = owner,
        headers: Record<string, string> = {},
      ) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
          method: 'POST',
          headers: {
            ...(body.ip === undefined ? {} : { 'x-forwarded-for': body.ip }),
            ...who.auth,
            ...headers,
          },
          body,
        });
      const linked = async (
        profileId: string,
        body: { ip?: string; ddns?: boolean },
      ): Promise<LinkedIpBody> => {
        const answer = await link(profileId, body);
        expect(answer.status, answer.text).toBe(201);
        return answer.json as LinkedIpBody;
      };
      const listOf = async (profileId: string, who: TestAccount = owner, query = '') => {
        const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips${query}`, {
          headers: who.auth,
        });
        return answer.json as { linked_ips: LinkedIpBody[]; next_cursor: string | null };
      };
      const etagOf = async (profileId: string) =>
        (await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth })).headers.etag;
      const updateUrlOf = async (profileId: string, linkId: string): Promise<string> => {
        const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${linkId}/ddns`, {
          headers: owner.auth,
        });
        expect(answer.status).toBe(200);
        return (answer.json as { update_url: string }).update_url;
      };
      const rotate = (profileId: string, linkId: string, who: TestAccount = owner) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips/${linkId}/ddns`, {
          method: 'POST',
          headers: who.auth,
        });
      const ddns = (url: string, from?: string) =>
        send(url, { headers: from === undefined ? {} : { 'x-forwarded-for': from } });
      const documentsOf = (profileId: string) =>
        published
          .filter((delivery) => delivery.subject === `profiles.${profileId}`)
          .map((delivery) => delivery.payload as Record<string, unknown>);
      const documentAt = async (profileId: string, version: number) =>
        (
          await eventually(
            async () => documentsOf(profileId),
            (found) => found.some((document) => document.version === version),
          )
        ).find((document) => document.version === version);
      const suspend = async (profileId: string) => {
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
        const orgId = (me.json as { account: { org_id: string } }).account.org_id;
        await uow.run(async (tx) => {
          const record = (await tx.profiles.find(orgId, profileId, { forUpdate: true })) as ProfileRecord;
          await tx.profiles.save({ ...record, suspended: true });
        });
      };

      it('links an address: 201 with Location, one version bump, and linked_ips in the published document', async () => {
        const profileId = await createProfile();
        const ip = freshIp();
        const answer = await link(profileId, { ip });
        expect(answer.status).toBe(201);
        const record = answer.json as LinkedIpBody;
        expect(record.id).toMatch(UUID);
        expect(record).toMatchObject({ ip, ddns: false, state: 'active' });
        expect(Object.keys(record).sort()).toEqual(['created_at', 'ddns', 'id', 'ip', 'state', 'updated_at']);
        expect(answer.headers.location).toBe(`/v1/profiles/${profileId}/linked-ips/${record.id}`);
        expect(await etagOf(profileId)).toBe('"2"');
        expect((await documentAt(profileId, 1))?.linked_ips).toEqual([]);
        expect((await documentAt(profileId, 2))?.linked_ips).toEqual([ip]);
        expect((await listOf(profileId)).linked_ips).toEqual([record]);
        const one = await send(`${api.url}${answer.headers.location}`, { headers: owner.auth });
        expect(one.json).toEqual(record);
      });

      it('republishes the linked addresses, in text order, with every write of the profile row alone', async () => {
        const profileId = await createProfile();
        const addresses = ['203.0.113.254', '198.51.100.201'];
        for (const ip of addresses) await linked(profileId, { ip });
        await linked(profileId, { ddns: true });
        const writes = [
          { path: '', method: 'PATCH', body: { name: 'renamed' } },
          { path: '/rules', method: 'PUT', body: { deny: ['ads.example'], allow: [], rewrites: [] } },
          { path: '/lists', method: 'PUT', body: { lists: [] } },
        ];
        for (const write of writes) {
          const answer = await send(`${api.url}/v1/profiles/${profileId}${write.path}`, {
            method: write.method,
            headers: owner.auth,
            body: write.body,
          });
          expect(answer.status, answer.text).toBe(200);
        }
        expect(await etagOf(profileId)).toBe('"7"');
        for (const version of [5, 6, 7])
          expect((await documentAt(profileId, version))?.linked_ips).toEqual([
            '198.51.100.201',
            '203.0.113.254',
          ]);
      });

      it('answers 409 ip_conflict for an address linked to any profile, another organisation’s included', async () => {
        const mine = await createProfile();
        const theirs = await createProfile(stranger);
        const ip = freshIp();
        await linked(mine, { ip });
        expectProblem(await link(theirs, { ip }, stranger), 409, 'ip_conflict');
        expectProblem(await link(mine, { ip }), 409, 'ip_conflict');
        expect(await etagOf(mine)).toBe('"2"');
        expect((await listOf(theirs, stranger)).linked_ips).toEqual([]);
      });

      it('lets exactly one of two concurrent links of one address succeed (409 for the other)', async () => {
        for (let round = 0; round < 3; round += 1) {
          const first = await createProfile();
          const second = await createProfile(stranger);
          const ip = freshIp();
          const answers = await Promise.all([link(first, { ip }), link(second, { ip }, stranger)]);
          expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
          expect(problemOf(answers.find((answer) => answer.status === 409) as RawAnswer).code).toBe(
            'ip_conflict',
          );
          const holders = [
            ...(await listOf(first)).linked_ips,
            ...(await listOf(second, stranger)).linked_ips,
          ];
          expect(holders.map((entry) => entry.ip)).toEqual([ip]);
        }
      });

      it.each([
        [{ ip: '2001:db8::1' }, 'ip', /IPv4/],
        [{ ip: '203.0.113.300' }, 'ip', /IPv4/],
        [{}, 'ip', /^send ip \(an IPv4 address to link\) or ddns: true(?!.*not both)/],
        [{ ip: '192.0.2.1', ddns: true }, 'ip', /not both/],
        [{ ddns: false }, 'ddns', /true/],
      ])('refuses %j with 422 validation_failed naming %s', async (body, field, message) => {
        const profileId = await createProfile();
        const answer = await link(profileId, body);
        expectProblem(answer, 422, 'validation_failed');
        const error = (problemOf(answer).errors as { field: string; message: string }[]).find(
          (entry) => entry.field === field,
        );
        expect(error?.message).toMatch(message);
        expect(await etagOf(profileId)).toBe('"1"');
      });

      it('creates an empty DDNS slot and fills it from the caller’s address: changed once, then unchanged', async () => {
        const profileId = await createProfile();
        const slot = await linked(profileId, { ddns: true });
        expect(slot).toMatchObject({ ip: null, ddns: true, state: 'pending' });
        expect(slot.proof_url).toBeUndefined();
        expect((await documentAt(profileId, 2))?.linked_ips).toEqual([]);
        const url = await updateUrlOf(profileId, slot.id);
        expect(url).toMatch(new RegExp(`^${api.url}/v1/ddns/[A-Za-z0-9_-]{43}$`));
        expect(await updateUrlOf(profileId, slot.id)).toBe(url);

        const first = await ddns(url, '198.51.100.76');
        expect(first.status).toBe(200);
        expect(first.json).toEqual({ ip: '198.51.100.76', changed: true });
        expect(await etagOf(profileId)).toBe('"3"');
        expect((await documentAt(profileId, 3))?.linked_ips).toEqual(['198.51.100.76']);
        const again = await ddns(url, '198.51.100.76');
        expect(again.json).toEqual({ ip: '198.51.100.76', changed: false });
        expect(await etagOf(profileId)).toBe('"3"');
        const [record] = (await listOf(profileId)).linked_ips;
        expect(record).toMatchObject({ id: slot.id, ip: '198.51.100.76', ddns: true, state: 'active' });

        const moved = await ddns(url, '198.51.100.77');
        expect(moved.json).toEqual({ ip: '198.51.100.77', changed: true });
        const mapped = await ddns(url, '::ffff:198.51.100.78');
        expect(mapped.json).toEqual({ ip: '198.51.100.78', changed: true });
        expect(await etagOf(profileId)).toBe('"5"');
        expect((await documentAt(profileId, 5))?.linked_ips).toEqual(['198.51.100.78']);
      });

      it('refuses private, loopback and reserved addresses with 422 naming ip, linked or from DDNS (issue 27)', async () => {
        const profileId = await createProfile();
        const refused = [
          '10.1.2.3',
          '172.16.0.1',
          '192.168.1.1',
          '127.0.0.1',
          '169.254.1.1',
          '100.64.0.1',
          '224.0.0.1',
          '0.0.0.0',
          '255.255.255.255',
          '240.0.0.1',
          '198.18.0.1',
          '192.0.0.8',
        ];
        for (const ip of refused) {
          const answer = await link(profileId, { ip });
          expectProblem(answer, 422, 'validation_failed');
          const errors = problemOf(answer).errors as { field: string; message: string }[];
          expect(
            errors.map((error) => error.field),
            ip,
          ).toEqual(['ip']);
          expect(errors[0]?.message).toMatch(/only public unicast addresses are linked/);
        }
        const slot = await linked(profileId, { ddns: true });
        const url = await updateUrlOf(profileId, slot.id);
        for (const from of [undefined, '10.0.0.7', '::ffff:192.168.0.9']) {
          const answer = await ddns(url, from);
          expectProblem(answer, 422, 'validation_failed');
          expect((problemOf(answer).errors as { field: string }[]).map((error) => error.field)).toEqual([
            'ip',
          ]);
        }
        expect(await etagOf(profileId)).toBe('"2"');
        expect((await listOf(profileId)).linked_ips.map((entry) => entry.ip)).toEqual([null]);
      });

      it('refuses an IPv6 DDNS caller with 422 naming ip, and changes nothing', async () => {
        const profileId = await createProfile();
        const slot = await linked(profileId, { ddns: true });
        const answer = await ddns(await updateUrlOf(profileId, slot.id), '2001:db8::53');
        expectProblem(answer, 422, 'validation_failed');
        expect((problemOf(answer).errors as { field: string }[]).map((error) => error.field)).toEqual(['ip']);
        expect(await etagOf(profileId)).toBe('"2"');
      });

      it('answers 409 ip_conflict when a DDNS update names an address linked elsewhere', async () => {
        const taken = freshIp();
        const holder = await createProfile();
        await linked(holder, { ip: taken });
        const profileId = await createProfile();
        const slot = await linked(profileId, { ddns: true });
        expectProblem(await ddns(await updateUrlOf(profileId, slot.id), taken), 409, 'ip_conflict');
        expect((await listOf(profileId)).linked_ips[0]?.ip).toBeNull();
        expect(await etagOf(profileId)).toBe('"2"');
      });

      it('rotates the DDNS token: the old URL is 404 at once, the new one works, the version stays', async () => {
        const profileId = await createProfile();
        const slot = await linked(profileId, { ddns: true });
        const old = await updateUrlOf(profileId, slot.id);
        const rotated = await rotate(profileId, slot.id);
        expect(rotated.status).toBe(200);
        const fresh = (rotated.json as { update_url: string }).update_url;
        expect(fresh).not.toBe(old);
        expect(await updateUrlOf(profileId, slot.id)).toBe(fresh);
        expect(await etagOf(profileId)).toBe('"2"');
        expectProblem(await ddns(old, freshIp()), 404, 'not_found');
        const ip = freshIp();
        expect((await ddns(fresh, ip)).json).toEqual({ ip, changed: true });
        expectProblem(await ddns(`${api.url}/v1/ddns/not-a-token`), 404, 'not_found');
      });

      it('unlinks with 204: gone from the list and the edge document, its DDNS URL stops, the address is free', async () => {
        const profileId = await createProfile();
        const ip = freshIp();
        const record = await linked(profileId, { ip });
        const url = await updateUrlOf(profileId, record.id);
        const removed = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(removed.status).toBe(204);
        expect(removed.text).toBe('');
        expect(await etagOf(profileId)).toBe('"3"');
        expect((await documentAt(profileId, 3))?.linked_ips).toEqual([]);
        expect((await listOf(profileId)).linked_ips).toEqual([]);
        const again = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expectProblem(again, 404, 'not_found');
        expectProblem(await ddns(url, freshIp()), 404, 'not_found');
        expect((await link(await createProfile(stranger), { ip }, stranger)).status).toBe(201);
      });

      it('frees the addresses of a deleted profile', async () => {
        const profileId = await createProfile();
        const ip = freshIp();
        await linked(profileId, { ip });
        const deleted = await send(`${api.url}/v1/profiles/${profileId}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(deleted.status).toBe(204);
        expect((await link(await createProfile(stranger), { ip }, stranger)).status).toBe(201);
      });

      it('pages the list newest first with sealed cursors', async () => {
        const profileId = await createProfile();
        const ips: string[] = [];
        for (let n = 0; n < 3; n += 1) {
          ips.push(freshIp());
          await linked(profileId, { ip: ips.at(-1) });
          api.clock.advance(1_000);
        }
        const first = await listOf(profileId, owner, '?limit=2');
        expect(first.linked_ips.map((entry) => entry.ip)).toEqual([ips[2], ips[1]]);
        expect(first.next_cursor).toEqual(expect.any(String));
        const rest = await listOf(profileId, owner, `?limit=2&cursor=${first.next_cursor}`);
        expect(rest).toEqual({ linked_ips: [expect.objectContaining({ ip: ips[0] })], next_cursor: null });
        const tampered = await send(
          `${api.url}/v1/profiles/${profileId}/linked-ips?cursor=x${first.next_cursor}`,
          {
            headers: owner.auth,
          },
        );
        expectProblem(tampered, 400, 'invalid_cursor');
        const elsewhere = await createProfile();
        const crossed = await send(
          `${api.url}/v1/profiles/${elsewhere}/linked-ips?cursor=${first.next_cursor}`,
          {
            headers: owner.auth,
          },
        );
        expectProblem(crossed, 400, 'invalid_cursor');
        expect(
          (await send(`${api.url}/v1/profiles/${profileId}/linked-ips?limit=0`, { headers: owner.auth }))
            .status,
        ).toBe(422);
      });

      it('honours If-Match on link and unlink (412 version_mismatch, nothing changes)', async () => {
        const profileId = await createProfile();
        expectProblem(
          await link(profileId, { ip: freshIp() }, owner, { 'if-match': '"7"' }),
          412,
          'version_mismatch',
        );
        const record = (await link(profileId, { ip: freshIp() }, owner, { 'if-match': '"1"' }))
          .json as LinkedIpBody;
        expect(await etagOf(profileId)).toBe('"2"');
        const stale = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
          method: 'DELETE',
          headers: { ...owner.auth, 'if-match': '"1"' },
        });
        expectProblem(stale, 412, 'version_mismatch');
        expect((await listOf(profileId)).linked_ips).toHaveLength(1);
      });

      it('replays a link repeated with the same Idempotency-Key', async () => {
        const profileId = await createProfile();
        const ip = freshIp();
        const headers = { 'idempotency-key': `link-${Math.random()}` };
        const first = await link(profileId, { ip }, owner, headers);
        const again = await link(profileId, { ip }, owner, headers);
        expect(again.status).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json).toEqual(first.json);
        expect(again.headers.location).toBe(first.headers.location);
        expect(await etagOf(profileId)).toBe('"2"');
      });

      it('answers 404 for another organisation’s profile or link on every route, and changes nothing', async () => {
        const profileId = await createProfile();
        const slot = await linked(profileId, { ddns: true });
        const url = await updateUrlOf(profileId, slot.id);
        const path = `${api.url}/v1/profiles/${profileId}/linked-ips`;
        const theirProfile = await createProfile(stranger);
        const answers = await Promise.all([
          send(path, { headers: stranger.auth }),
          link(profileId, { ip: freshIp() }, stranger),
          send(`${path}/${slot.id}`, { headers: stranger.auth }),
          send(`${path}/${slot.id}`, { method: 'DELETE', headers: stranger.auth }),
          send(`${path}/${slot.id}/ddns`, { headers: stranger.auth }),
          rotate(profileId, slot.id, stranger),
          // The owner's link id under the stranger's own profile is not theirs either.
          send(`${api.url}/v1/profiles/${theirProfile}/linked-ips/${slot.id}`, {
            method: 'DELETE',
            headers: stranger.auth,
          }),
          send(`${api.url}/v1/profiles/${theirProfile}/linked-ips/${slot.id}/ddns`, {
            headers: stranger.auth,
          }),
        ]);
        for (const answer of answers) expectProblem(answer, 404, 'not_found');
        expect(await etagOf(profileId)).toBe('"2"');
        expect(await updateUrlOf(profileId, slot.id)).toBe(url);
        expect((await listOf(profileId)).linked_ips).toHaveLength(1);
      });

      it('checks path and scope: a malformed linkId is 422; profiles:read lists but may not read DDNS URLs', async () => {
        const profileId = await createProfile();
        const malformed = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/not-a-uuid`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expectProblem(malformed, 422, 'validation_failed');
        expect((problemOf(malformed).errors as { field: string }[])[0]?.field).toBe('linkId');
        const reader = await createAccount(api, ['profiles:read']);
        // The reader's session holds every scope; its token only profiles:read.
        const session = { cookie: `svc_session=${reader.cookie}` };
        const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: session, body: {} });
        const theirs = (created.json as { id: string }).id;
        const path = `${api.url}/v1/profiles/${theirs}/linked-ips`;
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
        expectProblem(
          await send(`${path}/${slotId}/ddns`, { headers: reader.auth }),
          403,
          'insufficient_scope',
        );
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
          await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
            method: 'DELETE',
            headers: owner.auth,
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
    },
  );

  describe.skipIf(options.skip === true)(
    `linked IPs proven by their address on ${storage} (issue 35)`,
    () => {
      let api: ApiHarness;
      let victim: TestAccount;
      let attacker: TestAccount;
      const published: BusDelivery[] = [];
      let nextAddress = 0;
      /** A documentation address (RFC 5737) no other test of this block links. */
      const freshIp = () => {
        nextAddress += 1;
        return `198.51.100.${nextAddress}`;
      };

      beforeAll(async () => {
        api = await startApi(storage, { SVC_TRUST_PROXY: 'loopback' });
        const bus = await api.container.getAsync<MessageBus>(MessageBus);
        await bus.subscribe('profiles.>', (delivery) => {
          published.push(delivery);
        });
        victim = await createAccount(api);
        attacker = await createAccount(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const createProfile = async (headers: Record<string, string>): Promise<string> => {
        const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers, body: {} });
        expect(answer.status, answer.text).toBe(201);
        return (answer.json as { id: string }).id;
      };
      const link = (profileId: string, body: object, headers: Record<string, string>, from?: string) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
          method: 'POST',
          headers: { ...headers, ...(from === undefined ? {} : { 'x-forwarded-for': from }) },
          body,
        });
      const listOf = async (profileId: string, headers: Record<string, string>) =>
        (await send(`${api.url}/v1/profiles/${profileId}/linked-ips`, { headers })).json as {
          linked_ips: LinkedIpBody[];
        };
      const ddns = (url: string, from: string) => send(url, { headers: { 'x-forwarded-for': from } });
      const publishedAddresses = async (profileId: string, version: number) => {
        const documents = await eventually(
          async () =>
            published
              .filter((delivery) => delivery.subject === `profiles.${profileId}`)
              .map((delivery) => delivery.payload as { version: number; linked_ips: string[] }),
          (found) => found.some((document) => document.version === version),
        );
        return documents.find((document) => document.version === version)?.linked_ips;
      };
      /** An account that signed up and signed in but has not opened its verification mail yet. */
      const signUpUnverified = async () => {
        const email = `unverified-${Math.random().toString(36).slice(2, 10)}@example.test`;
        const password = 'correct horse battery';
        const signup = await send(`${api.url}/v1/auth/signup`, { method: 'POST', body: { email, password } });
        expect(signup.status).toBe(202);
        const mails = await eventually(
          () => api.mailTo(email),
          (found) => found.length > 0,
        );
        const verifyToken = decodeURIComponent(
          /verify-email\?token=([^\s"<]+)/.exec(mails[0] ?? '')?.[1] ?? '',
        );
        const login = await send(`${api.url}/v1/auth/login`, { method: 'POST', body: { email, password } });
        const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1];
        expect(cookie, login.text).toBeDefined();
        const session = { cookie: `svc_session=${cookie}` };
        const me = await send(`${api.url}/v1/auth/me`, { headers: session });
        const orgId = (me.json as { account: { org_id: string } }).account.org_id;
        return { email, password, session, verifyToken, orgId };
      };

      it('makes a claim of someone else’s address pending: its proof URL shown, never published, blocking nobody', async () => {
        const victimIp = freshIp();
        const attackerIp = freshIp();
        const theirs = await createProfile(attacker.auth);
        const claim = await link(theirs, { ip: victimIp }, attacker.auth, attackerIp);
        expect(claim.status, claim.text).toBe(201);
        const pending = claim.json as LinkedIpBody;
        expect(pending).toMatchObject({ ip: victimIp, ddns: false, state: 'pending' });
        expect(pending.proof_url).toMatch(new RegExp(`^${api.url}/v1/ddns/[A-Za-z0-9_-]{43}$`));
        expect(await publishedAddresses(theirs, 2)).toEqual([]);
        const listed = (await listOf(theirs, attacker.auth)).linked_ips;
        const { proof_url: _shownOnce, ...withoutProof } = pending;
        expect(listed).toEqual([withoutProof]);

        // The real owner links it from the network itself: active and published, no ip_conflict.
        const mine = await createProfile(victim.auth);
        const proven = await link(mine, { ip: victimIp }, victim.auth, victimIp);
        expect(proven.status, proven.text).toBe(201);
        expect((proven.json as LinkedIpBody).state).toBe('active');
        expect((proven.json as LinkedIpBody).proof_url).toBeUndefined();
        expect(await publishedAddresses(mine, 2)).toEqual([victimIp]);

        // Proving the claim now would make a second holder: 409, and the claim stays unpublished.
        expectProblem(await ddns(pending.proof_url ?? '', victimIp), 409, 'ip_conflict');
        expect((await listOf(theirs, attacker.auth)).linked_ips[0]?.state).toBe('pending');
      });

      it('proves a pending claim by its proof URL called from the address; two proven claims keep 409 (a shared NAT)', async () => {
        const ip = freshIp();
        const profileId = await createProfile(victim.auth);
        const pending = (await link(profileId, { ip }, victim.auth, freshIp())).json as LinkedIpBody;
        expect(pending.state).toBe('pending');
        const proof = await ddns(pending.proof_url ?? '', ip);
        expect(proof.status, proof.text).toBe(200);
        expect(proof.json).toEqual({ ip, changed: true });
        expect(await publishedAddresses(profileId, 3)).toEqual([ip]);
        expect((await listOf(profileId, victim.auth)).linked_ips[0]).toMatchObject({ ip, state: 'active' });
        expect((await ddns(pending.proof_url ?? '', ip)).json).toEqual({ ip, changed: false });

        const other = await createProfile(attacker.auth);
        expectProblem(await link(other, { ip }, attacker.auth, ip), 409, 'ip_conflict');
        // A mere claim never conflicts.
        expect(((await link(other, { ip }, attacker.auth, freshIp())).json as LinkedIpBody).state).toBe(
          'pending',
        );
      });

      it('expires a claim left unproven for 24 hours: gone from the list, its proof URL 404, no cap held', async () => {
        const ip = freshIp();
        const profileId = await createProfile(victim.auth);
        const pending = (await link(profileId, { ip }, victim.auth, freshIp())).json as LinkedIpBody;
        api.clock.advance(DAY_MS - 60_000);
        expect((await listOf(profileId, victim.auth)).linked_ips.map((entry) => entry.state)).toEqual([
          'pending',
        ]);
        api.clock.advance(120_000);
        expect((await listOf(profileId, victim.auth)).linked_ips).toEqual([]);
        const path = `${api.url}/v1/profiles/${profileId}/linked-ips/${pending.id}`;
        expectProblem(await send(path, { headers: victim.auth }), 404, 'not_found');
        expectProblem(await ddns(pending.proof_url ?? '', ip), 404, 'not_found');
        expect(await publishedAddresses(profileId, 2)).toEqual([]);
      });

      it('answers 403 email_unverified to linking, DDNS slots and their URLs before the address is verified', async () => {
        const unverified = await signUpUnverified();
        // Profile writes stay open, so a new user can try the product before the mail arrives.
        const profileId = await createProfile(unverified.session);
        const ip = freshIp();
        expectProblem(await link(profileId, { ip }, unverified.session, ip), 403, 'email_unverified');
        expectProblem(await link(profileId, { ddns: true }, unverified.session), 403, 'email_unverified');
        // A slot left from before this rule: its URL may neither be read nor rotated.
        const keyedHash = await api.container.getAsync<KeyedHash>(KeyedHash);
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const slotId = crypto.randomUUID();
        const now = api.clock.now();
        await uow.run(async (tx) => {
          await tx.linkedIps.insert({
            id: slotId,
            orgId: unverified.orgId,
            profileId,
            ip: null,
            state: 'pending',
            ddns: true,
            ddnsGeneration: 1,
            ddnsLookup: ddnsLookupOf(keyedHash, slotId, 1),
            createdAt: now,
            updatedAt: now,
          });
        });
        const urlPath = `${api.url}/v1/profiles/${profileId}/linked-ips/${slotId}/ddns`;
        expectProblem(await send(urlPath, { headers: unverified.session }), 403, 'email_unverified');
        expectProblem(
          await send(urlPath, { method: 'POST', headers: unverified.session }),
          403,
          'email_unverified',
        );
        expect((await listOf(profileId, unverified.session)).linked_ips).toHaveLength(1);
      });

      it('rotates every DDNS token and drops every pending claim of the organisation at first verification', async () => {
        const unverified = await signUpUnverified();
        const profileId = await createProfile(unverified.session);
        const keyedHash = await api.container.getAsync<KeyedHash>(KeyedHash);
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const now = api.clock.now();
        // What a pre-registering attacker could have left under the victim's address before this rule.
        const slotId = crypto.randomUUID();
        const claimId = crypto.randomUUID();
        const claimed = freshIp();
        await uow.run(async (tx) => {
          for (const [id, ip] of [
            [slotId, null],
            [claimId, claimed],
          ] as const) {
            await tx.linkedIps.insert({
              id,
              orgId: unverified.orgId,
              profileId,
              ip,
              state: 'pending',
              ddns: ip === null,
              ddnsGeneration: 1,
              ddnsLookup: ddnsLookupOf(keyedHash, id, 1),
              createdAt: now,
              updatedAt: now,
            });
          }
        });
        const oldSlotUrl = `${api.url}/v1/ddns/${ddnsTokenOf(keyedHash, slotId, 1)}`;
        const oldClaimUrl = `${api.url}/v1/ddns/${ddnsTokenOf(keyedHash, claimId, 1)}`;
        const attackerIp = freshIp();
        expect((await ddns(oldSlotUrl, attackerIp)).status).toBe(200);

        const verified = await send(`${api.url}/v1/auth/verify`, {
          method: 'POST',
          body: { token: unverified.verifyToken },
        });
        expect(verified.status, verified.text).toBe(200);

        expectProblem(await ddns(oldSlotUrl, freshIp()), 404, 'not_found');
        expectProblem(await ddns(oldClaimUrl, claimed), 404, 'not_found');
        const login = await send(`${api.url}/v1/auth/login`, {
          method: 'POST',
          body: { email: unverified.email, password: unverified.password },
        });
        const session = {
          cookie: `svc_session=${/svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1]}`,
        };
        const left = (await listOf(profileId, session)).linked_ips;
        expect(left.map((entry) => entry.id)).toEqual([slotId]);
        // The owner reads the slot's new URL and points their own router at it.
        const fresh = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${slotId}/ddns`, {
          headers: session,
        });
        expect(fresh.status).toBe(200);
        const ownIp = freshIp();
        expect((await ddns((fresh.json as { update_url: string }).update_url, ownIp)).json).toEqual({
          ip: ownIp,
          changed: true,
        });
      });
    },
  );

  describe.skipIf(options.skip === true)(
    `linked IPs within the deployment's caps on ${storage} (issue 27)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      beforeAll(async () => {
        api = await startApi(storage, { SVC_LINKED_IPS_PER_PROFILE: '2', SVC_LINKED_IPS_PER_ACCOUNT: '3' });
        owner = await createAccount(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const createProfile = async (): Promise<string> => {
        const answer = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: owner.auth,
          body: {},
        });
        return (answer.json as { id: string }).id;
      };
      const link = (profileId: string, body: object) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips`, { method: 'POST', headers: owner.auth, body });

      it('caps links per profile and per account (DDNS slots count), 422 too_many_linked_ips beyond', async () => {
        const first = await createProfile();
        const second = await createProfile();
        expect((await link(first, { ip: '198.51.100.1' })).status).toBe(201);
        const slot = await link(first, { ddns: true });
        expect(slot.status).toBe(201);
        const overProfile = await link(first, { ip: '198.51.100.2' });
        expectProblem(overProfile, 422, 'too_many_linked_ips');
        expect(problemOf(overProfile).detail).toMatch(/at most 2 per profile/);
        expect((await link(second, { ip: '198.51.100.3' })).status).toBe(201);
        const overAccount = await link(second, { ddns: true });
        expectProblem(overAccount, 422, 'too_many_linked_ips');
        expect(problemOf(overAccount).detail).toMatch(/at most 3 per account/);

        const slotId = (slot.json as { id: string }).id;
        const removed = await send(`${api.url}/v1/profiles/${first}/linked-ips/${slotId}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(removed.status).toBe(204);
        expect((await link(second, { ip: '198.51.100.4' })).status).toBe(201);
      });

      it('holds the account cap against concurrent links on several profiles', async () => {
        const other = await createAccount(api);
        const profiles = await Promise.all(
          [1, 2, 3].map(async () => {
            const answer = await send(`${api.url}/v1/profiles`, {
              method: 'POST',
              headers: other.auth,
              body: {},
            });
            return (answer.json as { id: string }).id;
          }),
        );
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, index) =>
            send(`${api.url}/v1/profiles/${profiles[index % 3]}/linked-ips`, {
              method: 'POST',
              headers: other.auth,
              body: { ip: `198.51.100.${100 + index}` },
            }),
          ),
        );
        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status === 201)).toHaveLength(3);
        for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
          expectProblem(answer, 422, 'too_many_linked_ips');
        }
      });

      it('proves nothing by a forged X-Forwarded-For from a peer that is no trusted proxy (issue 35)', async () => {
        const someone = await createAccount(api);
        const created = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: someone.auth,
          body: {},
        });
        const profileId = (created.json as { id: string }).id;
        const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
          method: 'POST',
          headers: { ...someone.auth, 'x-forwarded-for': '192.0.2.99' },
          body: { ip: '192.0.2.99' },
        });
        expect(answer.status).toBe(201);
        expect((answer.json as { state: string }).state).toBe('pending');
      });

      it('refuses documentation addresses (RFC 5737) outside development, where examples use them', async () => {
        const production = await startApi('memory', { SVC_ENV: 'production', SVC_SIGNUP_MODE: 'open' });
        try {
          const account = await createAccount(production);
          const created = await send(`${production.url}/v1/profiles`, {
            method: 'POST',
            headers: account.auth,
            body: {},
          });
          const profileId = (created.json as { id: string }).id;
          for (const ip of ['192.0.2.7', '198.51.100.7', '203.0.113.7']) {
            const answer = await send(`${production.url}/v1/profiles/${profileId}/linked-ips`, {
              method: 'POST',
              headers: account.auth,
              body: { ip },
            });
            expectProblem(answer, 422, 'validation_failed');
            const errors = problemOf(answer).errors as { field: string; message: string }[];
            expect(errors).toEqual([
              { field: 'ip', message: expect.stringMatching(/documentation \(RFC 5737\)/) },
            ]);
          }
          const publicAddress = await send(`${production.url}/v1/profiles/${profileId}/linked-ips`, {
            method: 'POST',
            headers: account.auth,
            body: { ip: '9.9.9.9' },
          });
          expect(publicAddress.status).toBe(201);
        } finally {
          await production.close();
        }
      });
    },
  );
}
