import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { joinAs } from '../../support/members.js';
import { expectProblem } from '../../support/problems.js';
import type { WebhooksFixture } from './webhooks.fixture.js';

/** Events of other contexts reach the endpoints subscribed to them, and only those (issue 40). */
export function describeWebhookEvents(fixture: WebhooksFixture): void {
  const { receiver, call, createWebhook, deliverAfter } = fixture;

  it('sends token.created and token.revoked to an endpoint subscribed to them, and nothing else', async () => {
    await createWebhook('/tokens', { events: ['token.created', 'token.revoked'] });
    // Tokens are created and revoked from a session only (its cookie, without the bearer token).
    const session = { cookie: `svc_session=${fixture.state.owner.cookie}` };
    const url = fixture.state.api.url;
    const created = await send(`${url}/v1/tokens`, {
      method: 'POST',
      headers: session,
      body: { name: 'ci', scopes: ['profiles:read'] },
    });
    expect(created.status, created.text).toBe(201);
    const tokenId = (created.json as { token: { id: string } }).token.id;
    expect((await send(`${url}/v1/tokens/${tokenId}`, { method: 'DELETE', headers: session })).status).toBe(
      204,
    );
    await fixture.createProfile('Not subscribed');
    await deliverAfter();
    await deliverAfter();
    const bodies = receiver.at('/tokens').map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type)).toEqual(['token.created', 'token.revoked']);
    expect(bodies[0].data).toEqual({ token_id: tokenId, name: 'ci', scopes: ['profiles:read'] });
    expect(bodies[1].data).toEqual({ token_id: tokenId });
  });

  it('does not send an event whose change rolled back (a refused profile write)', async () => {
    await createWebhook('/rolled-back', { events: ['profile.updated'] });
    const profileId = await fixture.createProfile('Kept');
    const refused = await call(`/v1/profiles/${profileId}`, {
      method: 'PATCH',
      headers: { 'if-match': '"99"' },
      body: { name: 'Never' },
    });
    expect(refused.status).toBe(412);
    await deliverAfter();
    expect(receiver.at('/rolled-back')).toEqual([]);
  });

  it('belongs to owners and admins: an editor or a viewer of the organisation is 403 insufficient_role', async () => {
    const { api, owner } = fixture.state;
    // Early in the file: the owner's session must still be live to invite.
    const inviter = { cookie: `svc_session=${owner.cookie}` };
    const webhook = await fixture.createWebhook('/roles');
    for (const role of ['editor', 'viewer']) {
      const member = await joinAs(api, inviter, role);
      expectProblem(
        await send(`${api.url}/v1/webhooks`, { headers: member.session }),
        403,
        'insufficient_role',
      );
      expectProblem(
        await send(`${api.url}/v1/webhooks/${webhook.id}/test`, { method: 'POST', headers: member.session }),
        403,
        'insufficient_role',
      );
    }
    const admin = await joinAs(api, inviter, 'admin');
    const seen = await send(`${api.url}/v1/webhooks/${webhook.id}`, { headers: admin.session });
    expect(seen.status, seen.text).toBe(200);
  });
}
