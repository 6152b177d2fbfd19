import { createHash, createPublicKey, verify } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  compactCanonicalJson,
  type ListPipelineService,
  type NodeProfileLists,
  operatorFileSignaturePayload,
  operatorNameKey,
  type ProfileRecord,
  profileSignaturePayload,
  UnitOfWork,
} from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { createOperator } from '../admin/operator-fixture.js';
import { openLink } from './link-client.js';

interface NodeBody {
  id: string;
  profile_id: string;
  name: string;
  state: 'pending' | 'enrolled' | 'revoked';
  version: string | null;
  shapes: string[];
  connected: boolean;
  last_seen_at: string | null;
  enrolment_expires_at: string;
  enrolled_at: string | null;
  token_rotated_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

interface Enrolled {
  node: NodeBody;
  node_token: string;
  profile_pubkey: { key_id: string; algorithm: string; public_key: string }[];
}

/** SPKI DER header of an Ed25519 public key; the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Self-hosted nodes through HTTP and a real WebSocket (spec 1.3, 3, 4.13, 5.1, 5.4, 7, 9; ROUTES.md): creation
 * with a one-time enrolment code, enrolment, node tokens accepted only by node endpoints, rotation with its
 * 600 s grace on an injected clock, revocation from both sides, the signed profile document with its
 * deprecation headers, deletion rules, and the link's protocol.
 */
export function runNodesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`self-hosted nodes on ${storage} (spec 3, 4.13, 5.1)`, () => {
    let api: ApiHarness;
    let owner: TestAccount;
    let stranger: TestAccount;
    let reader: TestAccount;

    beforeAll(async () => {
      api = await startApi(storage);
      owner = await createAccount(api);
      stranger = await createAccount(api);
      reader = await createAccount(api, ['profiles:read']);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const createProfile = async (who: TestAccount = owner): Promise<string> => {
      const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body: {} });
      expect(answer.status).toBe(201);
      return (answer.json as { id: string }).id;
    };
    const createNode = (profileId: string, body: object = { name: 'rack' }, headers = owner.auth) =>
      send(`${api.url}/v1/profiles/${profileId}/nodes`, { method: 'POST', headers, body });
    const created = async (profileId: string) => {
      const answer = await createNode(profileId);
      expect(answer.status, answer.text).toBe(201);
      return answer.json as { node: NodeBody; enrolment_code: string };
    };
    const enrol = (code: string, extra: object = {}) =>
      send(`${api.url}/v1/nodes/enrol`, { method: 'POST', body: { enrolment_code: code, ...extra } });
    const enrolled = async (profileId: string, extra: object = { version: '1.0.0', shapes: ['tail'] }) => {
      const { enrolment_code } = await created(profileId);
      const answer = await enrol(enrolment_code, extra);
      expect(answer.status, answer.text).toBe(201);
      return answer.json as Enrolled;
    };
    const asNode = (token: string) => ({ authorization: `Bearer ${token}` });
    const self = (token: string) => send(`${api.url}/v1/nodes/self`, { headers: asNode(token) });
    const rotate = (token: string) =>
      send(`${api.url}/v1/nodes/self/token`, { method: 'POST', headers: asNode(token) });
    const listNodes = async (profileId: string, who = owner, query = '') => {
      const answer = await send(`${api.url}/v1/profiles/${profileId}/nodes${query}`, { headers: who.auth });
      expect(answer.status, answer.text).toBe(200);
      return answer.json as { nodes: NodeBody[]; next_cursor: string | null };
    };
    const revoke = (profileId: string, nodeId: string, who = owner) =>
      send(`${api.url}/v1/profiles/${profileId}/nodes/${nodeId}`, { method: 'DELETE', headers: who.auth });

    describe('owner side (4.13, 5.4)', () => {
      it('creates a pending node with a one-time enrolment code: 201, Location, listed newest first', async () => {
        const profileId = await createProfile();
        const first = await created(profileId);
        // The manual clock stands still: move it, so that the second node is the newer one.
        api.clock.advance(1_000);
        const answer = await createNode(profileId, { name: 'second' });
        expect(answer.status).toBe(201);
        const second = answer.json as { node: NodeBody; enrolment_code: string };
        expect(answer.headers.location).toBe(`/v1/profiles/${profileId}/nodes/${second.node.id}`);
        expect(second.enrolment_code).toMatch(/^svcenrol_[A-Za-z0-9_-]{43}$/);
        expect(second.node).toMatchObject({
          profile_id: profileId,
          name: 'second',
          state: 'pending',
          version: null,
          shapes: [],
          connected: false,
          enrolled_at: null,
          token_rotated_at: null,
          revoked_at: null,
        });
        const expiresIn = Date.parse(second.node.enrolment_expires_at) - Date.parse(second.node.created_at);
        expect(expiresIn).toBe(24 * 60 * 60 * 1000);
        const list = await listNodes(profileId);
        expect(list.nodes.map((node) => node.id)).toEqual([second.node.id, first.node.id]);
        expect(JSON.stringify(list)).not.toContain('svcenrol_');
        const page = await listNodes(profileId, owner, '?limit=1');
        expect(page.nodes).toHaveLength(1);
        expect(page.next_cursor).not.toBeNull();
        const rest = await listNodes(
          profileId,
          owner,
          `?limit=1&cursor=${encodeURIComponent(page.next_cursor ?? '')}`,
        );
        expect(rest.nodes.map((node) => node.id)).toEqual([first.node.id]);
        const one = await send(`${api.url}/v1/profiles/${profileId}/nodes/${first.node.id}`, {
          headers: owner.auth,
        });
        expect((one.json as NodeBody).id).toBe(first.node.id);
      });

      it('needs profiles:write to create and revoke, profiles:read to list (5.4)', async () => {
        const profileId = await createProfile();
        const { node } = await created(profileId);
        // Scopes are checked before the profile is looked up, so another organisation's token shows them too.
        expectProblem(await createNode(profileId, { name: 'x' }, reader.auth), 403, 'insufficient_scope');
        expectProblem(await revoke(profileId, node.id, reader), 403, 'insufficient_scope');
        const accountOnly = await createAccount(api, ['account:read']);
        expectProblem(
          await send(`${api.url}/v1/profiles/${profileId}/nodes`, { headers: accountOnly.auth }),
          403,
          'insufficient_scope',
        );
        expect((await listNodes(profileId)).nodes.map((listed) => listed.id)).toEqual([node.id]);
      });

      it('answers 404 for another organisation’s profile or node (1.9)', async () => {
        const profileId = await createProfile();
        const { node } = await created(profileId);
        expectProblem(await createNode(profileId, { name: 'x' }, stranger.auth), 404, 'not_found');
        expectProblem(
          await send(`${api.url}/v1/profiles/${profileId}/nodes`, { headers: stranger.auth }),
          404,
          'not_found',
        );
        expectProblem(await revoke(profileId, node.id, stranger), 404, 'not_found');
        const otherProfile = await createProfile(stranger);
        expectProblem(await revoke(otherProfile, node.id, stranger), 404, 'not_found');
      });

      it('refuses a bad name with 422 naming the field', async () => {
        const profileId = await createProfile();
        const problem = expectProblem(await createNode(profileId, { name: '' }), 422, 'validation_failed');
        expect(problem.errors).toEqual([expect.objectContaining({ field: 'name' })]);
        expectProblem(await createNode(profileId, { name: 'x'.repeat(65) }), 422, 'validation_failed');
        expectProblem(await createNode(profileId, { name: 'ok', extra: 1 }), 422, 'validation_failed');
      });

      it('replays a create with the same Idempotency-Key, enrolment code included (4.1.5)', async () => {
        const profileId = await createProfile();
        const headers = { ...owner.auth, 'idempotency-key': `node-${Math.random()}` };
        const first = await createNode(profileId, { name: 'once' }, headers);
        const again = await createNode(profileId, { name: 'once' }, headers);
        expect(first.status).toBe(201);
        expect(again.status).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json).toEqual(first.json);
        expect((await listNodes(profileId)).nodes).toHaveLength(1);
        expectProblem(await createNode(profileId, { name: 'other' }, headers), 409, 'idempotency_key_reused');
      });

      it('refuses new nodes on a suspended profile (409 profile_suspended); lists still work', async () => {
        const profileId = await createProfile();
        const { node } = await created(profileId);
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
        const orgId = (me.json as { account: { org_id: string } }).account.org_id;
        await uow.run(async (tx) => {
          const record = (await tx.profiles.find(orgId, profileId, { forUpdate: true })) as ProfileRecord;
          await tx.profiles.save({ ...record, suspended: true });
        });
        expectProblem(await createNode(profileId), 409, 'profile_suspended');
        expect((await listNodes(profileId)).nodes).toHaveLength(1);
        // Revoking stays possible: it only takes access away.
        expect((await revoke(profileId, node.id)).status).toBe(204);
      });

      it('audits creation, enrolment, rotation and revocation in the organisation’s log (6.2)', async () => {
        const profileId = await createProfile();
        const { node, node_token } = await enrolled(profileId);
        expect((await rotate(node_token)).status).toBe(200);
        expect((await revoke(profileId, node.id)).status).toBe(204);
        const answer = await send(
          `${api.url}/v1/auth/audit?action=node.created&action=node.enrolled&action=node.token_rotated&action=node.revoked`,
          { headers: owner.auth },
        );
        const entries = (
          answer.json as { entries: { action: string; actor: string; target: string }[] }
        ).entries
          .filter((entry) => entry.target === `profiles/${profileId}/nodes/${node.id}`)
          .map((entry) => [entry.action, entry.actor.split(':')[0]]);
        expect(entries).toEqual([
          ['node.revoked', 'token'],
          ['node.token_rotated', 'node'],
          ['node.enrolled', 'node'],
          ['node.created', 'token'],
        ]);
      });
    });

    describe('enrolment (3: enrolment code issued → enrolled)', () => {
      it('exchanges the code for a svcnode_ token and the signing keys, once', async () => {
        const profileId = await createProfile();
        const { node, enrolment_code } = await created(profileId);
        const answer = await enrol(enrolment_code, { version: '2.1.0', shapes: ['tail', 'search', 'tail'] });
        expect(answer.status, answer.text).toBe(201);
        const body = answer.json as Enrolled;
        expect(body.node_token).toMatch(/^svcnode_[A-Za-z0-9]{52}$/);
        expect(body.node).toMatchObject({
          id: node.id,
          state: 'enrolled',
          version: '2.1.0',
          shapes: ['tail', 'search'],
        });
        expect(body.profile_pubkey.length).toBeGreaterThan(0);
        expect(body.profile_pubkey[0]).toMatchObject({ algorithm: 'Ed25519' });
        expect(Buffer.from(body.profile_pubkey[0]?.public_key ?? '', 'base64')).toHaveLength(32);
        expect(answer.headers['cache-control']).toBe('no-store');
        expectProblem(await enrol(enrolment_code), 400, 'token_used');
        const listed = (await listNodes(profileId)).nodes[0];
        expect(listed?.state).toBe('enrolled');
        expect(listed?.enrolled_at).not.toBeNull();
      });

      it('refuses an unknown code (400 invalid_token) and one past its 24 hours (400 token_expired)', async () => {
        expectProblem(await enrol('svcenrol_nope'), 400, 'invalid_token');
        expectProblem(await enrol(`svcenrol_${'A'.repeat(43)}`), 400, 'invalid_token');
        const profileId = await createProfile();
        const { enrolment_code } = await created(profileId);
        api.clock.advance(24 * 60 * 60 * 1000);
        expectProblem(await enrol(enrolment_code), 400, 'token_expired');
        expectProblem(await enrol(enrolment_code, { shapes: ['Not A Shape'] }), 422, 'validation_failed');
      });
    });

    describe('node tokens (5.1): accepted only by node endpoints and the link', () => {
      it('authenticates node endpoints; account routes answer 401, node routes refuse other credentials', async () => {
        const profileId = await createProfile();
        const { node, node_token } = await enrolled(profileId);
        const me = await self(node_token);
        expect(me.status).toBe(200);
        expect(me.json).toMatchObject({ id: node.id, profile_id: profileId, state: 'enrolled' });
        expectProblem(
          await send(`${api.url}/v1/profiles`, { headers: asNode(node_token) }),
          401,
          'unauthenticated',
        );
        expectProblem(
          await send(`${api.url}/v1/profiles/${profileId}/nodes`, { headers: asNode(node_token) }),
          401,
          'unauthenticated',
        );
        expectProblem(
          await send(`${api.url}/v1/nodes/self`, { headers: owner.auth }),
          401,
          'unauthenticated',
        );
        expectProblem(await send(`${api.url}/v1/nodes/self`), 401, 'unauthenticated');
        expectProblem(await self(`svcnode_${'x'.repeat(52)}`), 401, 'unauthenticated');
      });

      it('answers 401 node_revoked once the owner revokes the node, and again a revoke is a no-op', async () => {
        const profileId = await createProfile();
        const { node, node_token } = await enrolled(profileId);
        expect((await revoke(profileId, node.id)).status).toBe(204);
        expectProblem(await self(node_token), 401, 'node_revoked');
        expectProblem(await rotate(node_token), 401, 'node_revoked');
        expect((await revoke(profileId, node.id)).status).toBe(204);
        const listed = (await listNodes(profileId)).nodes[0];
        expect(listed).toMatchObject({ state: 'revoked', connected: false });
        expect(listed?.revoked_at).not.toBeNull();
      });

      it('lets a node revoke itself (DELETE /v1/nodes/self), then answers 401 node_revoked', async () => {
        const profileId = await createProfile();
        const { node_token } = await enrolled(profileId);
        expect(
          (await send(`${api.url}/v1/nodes/self`, { method: 'DELETE', headers: asNode(node_token) })).status,
        ).toBe(204);
        expectProblem(await self(node_token), 401, 'node_revoked');
      });
    });

    describe('account deletion (3: sessions, tokens and nodes revoked, and they stay revoked)', () => {
      it('revokes the organisation’s nodes and closes their links; undelete leaves them revoked', async () => {
        const deleting = await createAccount(api);
        const profile = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: deleting.auth,
          body: {},
        });
        const profileId = (profile.json as { id: string }).id;
        const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
          method: 'POST',
          headers: deleting.auth,
          body: { name: 'doomed' },
        });
        const code = (node.json as { enrolment_code: string }).enrolment_code;
        const { node_token } = (await enrol(code)).json as Enrolled;
        const link = await openLink(api.url, node_token);
        link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        await link.next('welcome');
        const cookie = { cookie: `svc_session=${deleting.cookie}` };
        expect((await send(`${api.url}/v1/auth/me`, { method: 'DELETE', headers: cookie })).status).toBe(202);
        expect(await link.closed).toBe(4001);
        expectProblem(await self(node_token), 401, 'node_revoked');
        // The session that asked is revoked with the rest: the owner signs in again to undelete.
        expect((await send(`${api.url}/v1/auth/me`, { headers: cookie })).status).toBe(401);
        const login = await send(`${api.url}/v1/auth/login`, {
          method: 'POST',
          body: { email: deleting.email, password: 'correct horse battery' },
        });
        expect(login.status, login.text).toBe(200);
        const again = {
          cookie: `svc_session=${/svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? ''}`,
        };
        const undeleted = await send(`${api.url}/v1/auth/me/undelete`, { method: 'POST', headers: again });
        expect(undeleted.status, undeleted.text).toBe(200);
        expectProblem(await self(node_token), 401, 'node_revoked');
      });
    });

    describe('token rotation (3, 8: 600 s grace after the first request with the new token)', () => {
      it('keeps the old token until 600 s after the new one is first used; a rotate with the old one is 409', async () => {
        const profileId = await createProfile();
        const { node_token: old } = await enrolled(profileId);
        const answer = await rotate(old);
        expect(answer.status, answer.text).toBe(200);
        const rotated = answer.json as {
          node_token: string;
          previous_valid_s: number;
          token_rotated_at: string;
        };
        expect(rotated.previous_valid_s).toBe(600);
        expect(rotated.node_token).toMatch(/^svcnode_[A-Za-z0-9]{52}$/);
        expect(rotated.node_token).not.toBe(old);
        // Before the new token is used, the old one keeps working however long it takes.
        api.clock.advance(3_600_000);
        expect((await self(old)).status).toBe(200);
        expectProblem(await rotate(old), 409, 'node_token_superseded');
        // The first request with the new token starts the grace.
        const first = await self(rotated.node_token);
        expect((first.json as NodeBody).token_rotated_at).toBe(rotated.token_rotated_at);
        api.clock.advance(599_000);
        expect((await self(old)).status).toBe(200);
        expectProblem(await rotate(old), 409, 'node_token_superseded');
        api.clock.advance(1_000);
        expectProblem(await self(old), 401, 'unauthenticated');
        expect((await self(rotated.node_token)).status).toBe(200);
      });

      it('a second rotation ends the first replaced token at once', async () => {
        const profileId = await createProfile();
        const { node_token: first } = await enrolled(profileId);
        const second = ((await rotate(first)).json as { node_token: string }).node_token;
        const third = ((await rotate(second)).json as { node_token: string }).node_token;
        expectProblem(await self(first), 401, 'unauthenticated');
        expect((await self(second)).status).toBe(200);
        expect((await self(third)).status).toBe(200);
      });
    });

    describe('profile document (4.13, 9)', () => {
      it('sends lists.url and lists.sha256 with the deprecated fields, their headers, and a verifiable signature', async () => {
        const profileId = await createProfile();
        const { node_token, profile_pubkey } = await enrolled(profileId);
        const answer = await send(`${api.url}/v1/nodes/self/profile`, { headers: asNode(node_token) });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.headers.deprecation).toBe(`@${Date.UTC(2026, 8, 30) / 1000}`);
        expect(answer.headers.sunset).toBe('Wed, 31 Mar 2027 00:00:00 GMT');
        const document = answer.json as Record<string, unknown> & {
          lists: { url: string; sha256: string; ids: number[] };
        };
        expect(document).toMatchObject({ kind: 'profile', id: profileId, version: 1, suspended: false });
        expect(document.lists.url).toBe(`${api.url}/v1/nodes/self/lists`);
        expect(document.lists.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(document.lists_url).toBe(document.lists.url);
        expect(document.lists_sha256).toBe(document.lists.sha256);
        // The ECS part the edge gets, with the operator's cap (no cap set here): mode off sends /0.
        expect(document.ecs).toEqual({
          mode: 'off',
          operator_cap: { v4: 32, v6: 128 },
          source_prefix: { v4: 0, v6: 0 },
        });
        const signingKey = profile_pubkey[0];
        expect(document.profile_key_id).toBe(signingKey?.key_id);
        expect(document.profile_pubkey).toBe(signingKey?.public_key);
        const publicKey = createPublicKey({
          key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(String(document.profile_pubkey), 'base64')]),
          format: 'der',
          type: 'spki',
        });
        const signature = Buffer.from(String(document.profile_signature), 'base64');
        const payload = profileSignaturePayload(document);
        expect(payload.startsWith(`svc-profile-v1\n${profileId}\n1\n{`)).toBe(true);
        expect(verify(null, Buffer.from(payload, 'utf8'), publicKey, signature)).toBe(true);
        const tampered = profileSignaturePayload({ ...document, version: 2 });
        expect(verify(null, Buffer.from(tampered, 'utf8'), publicKey, signature)).toBe(false);
      });
    });

    describe('compiled lists (issue 29: the node gets everything it must enforce)', () => {
      const importList = async (listId: number, text: string) => {
        const pipeline = await api.container.getAsync<ListPipelineService>(ListPipelineServiceToken);
        return pipeline.importList(
          listId,
          (async function* () {
            yield Buffer.from(text);
          })(),
        );
      };
      const raw = async (url: string, headers: Record<string, string>) => {
        const answer = await request(url, { headers });
        return {
          status: answer.statusCode,
          headers: answer.headers,
          body: Buffer.from(await answer.body.arrayBuffer()),
        };
      };

      it('names each applied list in the signed manifest, and serves its artifact to the profile’s nodes only', async () => {
        const imported = await importList(
          5,
          'ads.manifest-fixture.example\ntracker.manifest-fixture.example\n',
        );
        const profileId = await createProfile();
        const put = await send(`${api.url}/v1/profiles/${profileId}/lists`, {
          method: 'PUT',
          headers: owner.auth,
          body: { lists: [5] },
        });
        expect(put.status, put.text).toBe(200);
        const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
          method: 'PATCH',
          headers: owner.auth,
          body: { parental: { services: ['tiktok'] }, security: { threat_intel: true } },
        });
        expect(patched.status, patched.text).toBe(200);
        const { node_token } = await enrolled(profileId);
        const document = (await send(`${api.url}/v1/nodes/self/profile`, { headers: asNode(node_token) }))
          .json as { lists: NodeProfileLists; lists_sha256: string };
        const { artifacts } = document.lists;
        expect(document.lists.ids).toEqual([5]);
        // List 5 enabled by id; TikTok compiled from the catalogue; the threat feeds have no compilation yet.
        expect(artifacts.map((artifact) => [artifact.kind, artifact.list_id])).toEqual([
          ['list', 5],
          ['parental', 20002],
        ]);
        expect(artifacts[0]).toEqual({
          list_id: 5,
          kind: 'list',
          name: 'HaGeZi Multi NORMAL',
          version: imported.version,
          sha256: imported.sha256,
          size: expect.any(Number),
          url: `${api.url}/v1/nodes/self/lists/${imported.sha256}`,
        });
        const digest = createHash('sha256').update(compactCanonicalJson(artifacts)).digest('hex');
        expect(document.lists.sha256).toBe(digest);
        expect(document.lists_sha256).toBe(digest);
        const manifest = await send(`${api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) });
        expect(manifest.json).toEqual(document.lists);

        const url = artifacts[0]?.url ?? '';
        const zipped = await raw(url, { ...asNode(node_token), 'accept-encoding': 'gzip' });
        expect(zipped.status).toBe(200);
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.etag).toBe(`"${imported.sha256}"`);
        expect(zipped.headers['cache-control']).toBe('private, max-age=31536000, immutable');
        const text = gunzipSync(zipped.body);
        expect(createHash('sha256').update(text).digest('hex')).toBe(imported.sha256);
        expect(text.toString()).toContain('\n=ads.manifest-fixture.example\n');
        const plain = await raw(url, asNode(node_token));
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body.equals(text)).toBe(true);
        expect(Number(plain.headers['content-length'])).toBe(artifacts[0]?.size);
        const again = await raw(url, { ...asNode(node_token), 'if-none-match': `"${imported.sha256}"` });
        expect(again.status).toBe(304);

        // Another profile's node, a digest outside the manifest, an account token: never the artifact.
        const other = await enrolled(await createProfile());
        expectProblem(await send(url, { headers: asNode(other.node_token) }), 404, 'not_found');
        expectProblem(
          await send(`${api.url}/v1/nodes/self/lists/${'0'.repeat(64)}`, { headers: asNode(node_token) }),
          404,
          'not_found',
        );
        expect((await send(url, { headers: owner.auth })).status).toBe(401);
        expect((await send(url)).status).toBe(401);
      });

      it('tells linked nodes when lists change, and welcomes with the manifest digest', async () => {
        const profileId = await createProfile();
        await send(`${api.url}/v1/profiles/${profileId}/lists`, {
          method: 'PUT',
          headers: owner.auth,
          body: { lists: [6] },
        });
        const { node_token } = await enrolled(profileId);
        const link = await openLink(api.url, node_token);
        link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        const welcome = (await link.next('welcome')) as { lists_sha256?: string };
        const before = (await send(`${api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) }))
          .json as {
          sha256: string;
        };
        expect(welcome.lists_sha256).toBe(before.sha256);
        await importList(6, 'changed.manifest-fixture.example\n');
        await link.next('lists_changed');
        const after = (await send(`${api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) }))
          .json as {
          sha256: string;
          artifacts: { list_id: number }[];
        };
        expect(after.sha256).not.toBe(before.sha256);
        expect(after.artifacts.map((artifact) => artifact.list_id)).toEqual([6]);
        link.close();
      });
    });

    describe('operator files at the node (spec 3, 4.10: every edge in scope answers the pattern NXDOMAIN)', () => {
      const verifies = (message: Record<string, unknown>, keys: { key_id: string; public_key: string }[]) => {
        const key = keys.find((candidate) => candidate.key_id === message.key_id);
        if (key === undefined) return false;
        const publicKey = createPublicKey({
          key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.public_key, 'base64')]),
          format: 'der',
          type: 'spki',
        });
        const payload = operatorFileSignaturePayload(
          message.file as 'operator_blocks',
          Number(message.version),
          message.document,
        );
        return verify(
          null,
          Buffer.from(payload),
          publicKey,
          Buffer.from(String(message.signature), 'base64'),
        );
      };

      it('sends the node the files in its scope, signed, on (re)connection and on every change, and records its acknowledgements', async () => {
        const operator = await createOperator(api);
        const profileId = await createProfile();
        const { node, node_token, profile_pubkey } = await enrolled(profileId);
        const link = await openLink(api.url, node_token);
        link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        await link.next('welcome');
        const first = await link.next('operator_file');
        const second = await link.next('operator_file');
        expect([first.file, second.file].sort()).toEqual(['operator_blocks', 'operator_sources']);
        expect(verifies(first, profile_pubkey)).toBe(true);

        const block = (body: object) =>
          send(`${api.url}/v1/admin/operator-blocks`, { method: 'POST', headers: operator.admin, body });
        for (const body of [
          { pattern: `court-${profileId}.example`, reason_code: 'legal_order', public_ref: 'Order 1' },
          { pattern: `fra-${profileId}.example`, reason_code: 'legal_order', pops: ['fra1'] },
          { pattern: `de-${profileId}.example`, reason_code: 'legal_order', jurisdictions: ['DE'] },
          { pattern: `*.nodes-${profileId}.example`, reason_code: 'abuse', pops: ['node'] },
          { pattern: `=csam-${profileId}.example`, reason_code: 'csam' },
        ]) {
          expect((await block(body)).status).toBe(201);
        }
        let latest: Record<string, unknown> = {};
        for (let index = 0; index < 5; index += 1) latest = await link.next('operator_file');
        expect(latest).toMatchObject({ file: 'operator_blocks' });
        expect(verifies(latest, profile_pubkey)).toBe(true);
        const blocks = (latest.document as { blocks: Record<string, unknown>[] }).blocks.filter(
          (entry) => String(entry.pattern ?? entry.key).includes(profileId) || entry.reason_code === 'csam',
        );
        // In scope at a node: fleet-wide entries and those for the PoP `node`; csam names only as keys.
        expect(blocks.map((entry) => entry.pattern ?? 'key').sort()).toEqual(
          [`court-${profileId}.example`, `*.nodes-${profileId}.example`, 'key'].sort(),
        );
        const csam = blocks.find((entry) => entry.reason_code === 'csam');
        expect(csam).toMatchObject({ form: 'exact', key: operatorNameKey(`csam-${profileId}.example`) });
        expect(JSON.stringify(latest)).not.toContain(`csam-${profileId}`);
        // A tampered file does not verify.
        expect(verifies({ ...latest, version: Number(latest.version) + 1 }, profile_pubkey)).toBe(false);

        link.send({ type: 'operator_file_ack', file: 'operator_blocks', version: latest.version });
        link.send({ type: 'operator_file_ack', file: 'operator_sources', version: 0 });
        const acknowledged = await eventually(
          async () =>
            (
              (await send(`${api.url}/v1/profiles/${profileId}/nodes/${node.id}`, { headers: owner.auth }))
                .json as {
                operator_files: { operator_blocks: number | null; operator_sources: number | null };
              }
            ).operator_files,
          (files) => files.operator_blocks !== null && files.operator_sources !== null,
        );
        expect(acknowledged).toEqual({ operator_blocks: latest.version, operator_sources: 0 });
        // An older acknowledgement changes nothing.
        link.send({ type: 'operator_file_ack', file: 'operator_blocks', version: 1 });
        link.close();

        const source = await send(`${api.url}/v1/admin/source-blocks`, {
          method: 'POST',
          headers: operator.admin,
          body: { cidr: '203.0.113.0/24', reason: 'amplification', expires_at: '2099-01-01T00:00:00Z' },
        });
        expect(source.status, source.text).toBe(201);
        // Reconnected: the current version of each file, the source block in it.
        const again = await openLink(api.url, node_token);
        again.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        await again.next('welcome');
        const files = [await again.next('operator_file'), await again.next('operator_file')];
        const sources = files.find((file) => file.file === 'operator_sources');
        expect(
          ((sources?.document ?? { sources: [] }) as { sources: { cidr: string }[] }).sources.map(
            (entry) => entry.cidr,
          ),
        ).toContain('203.0.113.0/24');
        expect(files.find((file) => file.file === 'operator_blocks')?.version).toBe(latest.version);
        const nodeAfter = await send(`${api.url}/v1/profiles/${profileId}/nodes/${node.id}`, {
          headers: owner.auth,
        });
        expect(
          (nodeAfter.json as { operator_files: { operator_blocks: number } }).operator_files.operator_blocks,
        ).toBe(latest.version);
        again.close();
      });
    });

    describe('deletion rules (ROUTES.md: 409 profile_not_empty while nodes are enrolled)', () => {
      it('refuses to delete a profile with an enrolled node until it is revoked; pending nodes do not count', async () => {
        const profileId = await createProfile();
        const { node } = await enrolled(profileId);
        await created(profileId);
        expectProblem(
          await send(`${api.url}/v1/profiles/${profileId}`, { method: 'DELETE', headers: owner.auth }),
          409,
          'profile_not_empty',
        );
        expect((await revoke(profileId, node.id)).status).toBe(204);
        expect(
          (await send(`${api.url}/v1/profiles/${profileId}`, { method: 'DELETE', headers: owner.auth }))
            .status,
        ).toBe(204);
      });
    });

    describe('the link (GET /v1/nodes/self/link, docs/node-link-protocol.md)', () => {
      it('opens with a node token, welcomes the hello, shows the node connected and pushes profile changes', async () => {
        const profileId = await createProfile();
        const { node, node_token } = await enrolled(profileId);
        const link = await openLink(api.url, node_token);
        link.send({ type: 'hello', protocol: 1, version: '3.0.0', shapes: ['tail', 'top_domains'] });
        const welcome = await link.next('welcome');
        expect(welcome).toMatchObject({
          protocol: 1,
          node_id: node.id,
          profile_id: profileId,
          profile_version: 1,
        });
        const listed = (await listNodes(profileId)).nodes[0];
        expect(listed).toMatchObject({ connected: true, version: '3.0.0', shapes: ['tail', 'top_domains'] });
        expect(listed?.last_seen_at).not.toBeNull();

        const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
          method: 'PATCH',
          headers: owner.auth,
          body: { name: 'renamed' },
        });
        expect(patched.status).toBe(200);
        expect(await link.next('profile_changed')).toEqual({
          type: 'profile_changed',
          profile_id: profileId,
          version: 2,
        });

        link.send({ type: 'heartbeat' });
        expect(await link.next('heartbeat_ack')).toEqual({ type: 'heartbeat_ack' });
        // This profile's destination (cloud) keeps no node rows in the cloud: only `both` does.
        const row = {
          ts: api.clock.now().toISOString(),
          row_id: '1',
          transport: 'doh',
          qname: 'example.com.',
          qtype: 1,
          status: 'allowed',
          rcode: 0,
        };
        link.send({ type: 'log_batch', id: 'b1', rows: [row, { ...row, row_id: '2' }] });
        expect(await link.next('log_batch_ack')).toEqual({
          type: 'log_batch_ack',
          id: 'b1',
          accepted: 0,
          outcome: 'not_kept',
        });
        link.send({ type: 'from_the_future', anything: true });
        link.send({ type: 'heartbeat' });
        await link.next('heartbeat_ack');

        link.close();
        await link.closed;
        await eventually(
          async () => (await listNodes(profileId)).nodes[0]?.connected,
          (connected) => connected === false,
        );
      });

      it('is closed with 4001 when the node is revoked, and refuses revoked, API and missing tokens', async () => {
        const profileId = await createProfile();
        const { node, node_token } = await enrolled(profileId);
        const link = await openLink(api.url, node_token);
        link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        await link.next('welcome');
        expect((await revoke(profileId, node.id)).status).toBe(204);
        expect(await link.closed).toBe(4001);
        await expect(openLink(api.url, node_token)).rejects.toMatchObject({ status: 401 });
        await expect(openLink(api.url, owner.token)).rejects.toMatchObject({ status: 401 });
      });

      it('closes a link whose first message is not a hello (4003), and a second link replaces the first (4002)', async () => {
        const profileId = await createProfile();
        const { node_token } = await enrolled(profileId);
        const rude = await openLink(api.url, node_token);
        rude.send({ type: 'heartbeat' });
        expect(await rude.closed).toBe(4003);
        const first = await openLink(api.url, node_token);
        first.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
        await first.next('welcome');
        const second = await openLink(api.url, node_token);
        expect(await first.closed).toBe(4002);
        second.close();
      });

      it('answers a plain GET of the link path with how to open it', async () => {
        const profileId = await createProfile();
        const { node_token } = await enrolled(profileId);
        const answer = await send(`${api.url}/v1/nodes/self/link`, { headers: asNode(node_token) });
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({
          protocol: 1,
          heartbeat_s: 30,
          link_url: `${api.url.replace(/^http/, 'ws')}/v1/nodes/self/link`,
        });
        expectProblem(
          await send(`${api.url}/v1/nodes/self/link`, { headers: owner.auth }),
          401,
          'unauthenticated',
        );
      });
    });
  });
}
