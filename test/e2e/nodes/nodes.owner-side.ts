import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { suspendProfile } from '../../support/profiles.js';
import type { NodeBody, NodesFixture } from './nodes.fixture.js';

/** The owner creates, lists, reads and revokes nodes (spec 4.13, 5.4). */
export function nodeOwnerSide(fx: NodesFixture): void {
  const { createProfile, createNode, created, enrolled, rotate, listNodes, revoke } = fx;
  describe('owner side (4.13, 5.4)', () => {
    it('creates a pending node with a one-time enrolment code: 201, Location, listed newest first', async () => {
      const profileId = await createProfile();
      const first = await created(profileId);
      // The manual clock stands still: move it, so that the second node is the newer one.
      fx.api.clock.advance(1_000);
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
      const page = await listNodes(profileId, fx.owner, '?limit=1');
      expect(page.nodes).toHaveLength(1);
      expect(page.next_cursor).not.toBeNull();
      const rest = await listNodes(
        profileId,
        fx.owner,
        `?limit=1&cursor=${encodeURIComponent(page.next_cursor ?? '')}`,
      );
      expect(rest.nodes.map((node) => node.id)).toEqual([first.node.id]);
      const one = await send(`${fx.api.url}/v1/profiles/${profileId}/nodes/${first.node.id}`, {
        headers: fx.owner.auth,
      });
      expect((one.json as NodeBody).id).toBe(first.node.id);
    });

    it('needs profiles:write to create and revoke, profiles:read to list (5.4)', async () => {
      const profileId = await createProfile();
      const { node } = await created(profileId);
      // Scopes are checked before the profile is looked up, so another organisation's token shows them too.
      expectProblem(await createNode(profileId, { name: 'x' }, fx.reader.auth), 403, 'insufficient_scope');
      expectProblem(await revoke(profileId, node.id, fx.reader), 403, 'insufficient_scope');
      const accountOnly = await createAccount(fx.api, ['account:read']);
      expectProblem(
        await send(`${fx.api.url}/v1/profiles/${profileId}/nodes`, { headers: accountOnly.auth }),
        403,
        'insufficient_scope',
      );
      expect((await listNodes(profileId)).nodes.map((listed) => listed.id)).toEqual([node.id]);
    });

    it('answers 404 for another organisation’s profile or node (1.9)', async () => {
      const profileId = await createProfile();
      const { node } = await created(profileId);
      expectProblem(await createNode(profileId, { name: 'x' }, fx.stranger.auth), 404, 'not_found');
      expectProblem(
        await send(`${fx.api.url}/v1/profiles/${profileId}/nodes`, { headers: fx.stranger.auth }),
        404,
        'not_found',
      );
      expectProblem(await revoke(profileId, node.id, fx.stranger), 404, 'not_found');
      const otherProfile = await createProfile(fx.stranger);
      expectProblem(await revoke(otherProfile, node.id, fx.stranger), 404, 'not_found');
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
      const headers = { ...fx.owner.auth, 'idempotency-key': `node-${Math.random()}` };
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
      await suspendProfile(fx.api, fx.owner, profileId);
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
        `${fx.api.url}/v1/auth/audit?action=node.created&action=node.enrolled&action=node.token_rotated&action=node.revoked`,
        { headers: fx.owner.auth },
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
}
