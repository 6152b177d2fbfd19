import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
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
}
