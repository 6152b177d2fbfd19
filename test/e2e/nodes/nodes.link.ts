import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { openLink } from './link-client.js';
import type { NodesFixture } from './nodes.fixture.js';

/** The node link's protocol (GET /v1/nodes/self/link, docs/node-link-protocol.md). */
export function nodeLink(fx: NodesFixture): void {
  const { createProfile, enrolled, asNode, listNodes, revoke } = fx;
  describe('the link (GET /v1/nodes/self/link, docs/node-link-protocol.md)', () => {
    it('opens with a node token, welcomes the hello, shows the node connected and pushes profile changes', async () => {
      const profileId = await createProfile();
      const { node, node_token } = await enrolled(profileId);
      const link = await openLink(fx.api.url, node_token);
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

      const patched = await send(`${fx.api.url}/v1/profiles/${profileId}`, {
        method: 'PATCH',
        headers: fx.owner.auth,
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
        ts: fx.api.clock.now().toISOString(),
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
      const link = await openLink(fx.api.url, node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await link.next('welcome');
      expect((await revoke(profileId, node.id)).status).toBe(204);
      expect(await link.closed).toBe(4001);
      await expect(openLink(fx.api.url, node_token)).rejects.toMatchObject({ status: 401 });
      await expect(openLink(fx.api.url, fx.owner.token)).rejects.toMatchObject({ status: 401 });
    });

    it('closes a link whose first message is not a hello (4003), and a second link replaces the first (4002)', async () => {
      const profileId = await createProfile();
      const { node_token } = await enrolled(profileId);
      const rude = await openLink(fx.api.url, node_token);
      rude.send({ type: 'heartbeat' });
      expect(await rude.closed).toBe(4003);
      const first = await openLink(fx.api.url, node_token);
      first.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await first.next('welcome');
      const second = await openLink(fx.api.url, node_token);
      expect(await first.closed).toBe(4002);
      second.close();
    });

    it('answers a plain GET of the link path with how to open it', async () => {
      const profileId = await createProfile();
      const { node_token } = await enrolled(profileId);
      const answer = await send(`${fx.api.url}/v1/nodes/self/link`, { headers: asNode(node_token) });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        protocol: 1,
        heartbeat_s: 30,
        link_url: `${fx.api.url.replace(/^http/, 'ws')}/v1/nodes/self/link`,
      });
      expectProblem(
        await send(`${fx.api.url}/v1/nodes/self/link`, { headers: fx.owner.auth }),
        401,
        'unauthenticated',
      );
    });
  });
}
