import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { openLink } from './link-client.js';
import type { Enrolled, NodeBody, NodesFixture } from './nodes.fixture.js';

/** Enrolment, node tokens, their revocation with the account and their rotation (spec 3, 5.1, 8). */
export function nodeEnrolmentAndTokens(fx: NodesFixture): void {
  const { createProfile, created, enrol, enrolled, asNode, self, rotate, listNodes, revoke } = fx;
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
      fx.api.clock.advance(24 * 60 * 60 * 1000);
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
        await send(`${fx.api.url}/v1/profiles`, { headers: asNode(node_token) }),
        401,
        'unauthenticated',
      );
      expectProblem(
        await send(`${fx.api.url}/v1/profiles/${profileId}/nodes`, { headers: asNode(node_token) }),
        401,
        'unauthenticated',
      );
      expectProblem(
        await send(`${fx.api.url}/v1/nodes/self`, { headers: fx.owner.auth }),
        401,
        'unauthenticated',
      );
      expectProblem(await send(`${fx.api.url}/v1/nodes/self`), 401, 'unauthenticated');
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
        (await send(`${fx.api.url}/v1/nodes/self`, { method: 'DELETE', headers: asNode(node_token) })).status,
      ).toBe(204);
      expectProblem(await self(node_token), 401, 'node_revoked');
    });
  });

  describe('account deletion (3: sessions, tokens and nodes revoked, and they stay revoked)', () => {
    it('revokes the organisation’s nodes and closes their links; undelete leaves them revoked', async () => {
      const deleting = await createAccount(fx.api);
      const profile = await send(`${fx.api.url}/v1/profiles`, {
        method: 'POST',
        headers: deleting.auth,
        body: {},
      });
      const profileId = (profile.json as { id: string }).id;
      const node = await send(`${fx.api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: deleting.auth,
        body: { name: 'doomed' },
      });
      const code = (node.json as { enrolment_code: string }).enrolment_code;
      const { node_token } = (await enrol(code)).json as Enrolled;
      const link = await openLink(fx.api.url, node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await link.next('welcome');
      const cookie = { cookie: `svc_session=${deleting.cookie}` };
      expect((await send(`${fx.api.url}/v1/auth/me`, { method: 'DELETE', headers: cookie })).status).toBe(
        202,
      );
      expect(await link.closed).toBe(4001);
      expectProblem(await self(node_token), 401, 'node_revoked');
      // The session that asked is revoked with the rest: the owner signs in again to undelete.
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: cookie })).status).toBe(401);
      const login = await send(`${fx.api.url}/v1/auth/login`, {
        method: 'POST',
        body: { email: deleting.email, password: 'correct horse battery' },
      });
      expect(login.status, login.text).toBe(200);
      const again = {
        cookie: `svc_session=${/svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? ''}`,
      };
      const undeleted = await send(`${fx.api.url}/v1/auth/me/undelete`, { method: 'POST', headers: again });
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
      fx.api.clock.advance(3_600_000);
      expect((await self(old)).status).toBe(200);
      expectProblem(await rotate(old), 409, 'node_token_superseded');
      // The first request with the new token starts the grace.
      const first = await self(rotated.node_token);
      expect((first.json as NodeBody).token_rotated_at).toBe(rotated.token_rotated_at);
      fx.api.clock.advance(599_000);
      expect((await self(old)).status).toBe(200);
      expectProblem(await rotate(old), 409, 'node_token_superseded');
      fx.api.clock.advance(1_000);
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
}
