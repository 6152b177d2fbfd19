import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { expectProblem } from '../../support/problems.js';
import { WebhookReceiver } from './webhook-receiver.js';
import type { WebhooksFixture } from './webhooks.fixture.js';

/** Bad input, scopes and tenant isolation of the webhook routes (spec 1.9, 7). */
export function describeWebhookAccess(fixture: WebhooksFixture): void {
  const { call, createWebhook, deliverAfter, deliveries } = fixture;

  it('answers 422 with a field error per bad field', async () => {
    const answer = await call('/v1/webhooks', {
      method: 'POST',
      body: { url: 'not a url', events: ['profile.created', 'profile.exploded'], extra: 1 },
    });
    const problem = expectProblem(answer, 422, 'validation_failed');
    const fields = (problem.errors as { field: string }[]).map((error) => error.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['url', 'events.1']));
    const empty = expectProblem(
      await call('/v1/webhooks', { method: 'POST', body: { url: 'https://example.com/hook', events: [] } }),
      422,
      'validation_failed',
    );
    expect(empty.errors).toEqual([expect.objectContaining({ field: 'events' })]);
    const rotation = await call('/v1/webhooks/00000000-0000-4000-8000-000000000000/rotate-secret', {
      method: 'POST',
      body: { overlap_hours: 1000 },
    });
    expect(expectProblem(rotation, 422, 'validation_failed').errors).toEqual([
      expect.objectContaining({ field: 'overlap_hours' }),
    ]);
  });

  it('answers 404 for another organisation’s endpoint and its deliveries, and lists only the caller’s', async () => {
    const webhook = await createWebhook('/isolated');
    await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    await deliverAfter();
    const [delivery] = await deliveries(webhook.id);
    const stranger = fixture.state.stranger;
    const base = `/v1/webhooks/${webhook.id}`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['PATCH', base, { description: 'mine now' }],
      ['DELETE', base, undefined],
      ['POST', `${base}/test`, undefined],
      ['POST', `${base}/rotate-secret`, {}],
      ['GET', `${base}/deliveries`, undefined],
      ['POST', `${base}/deliveries/${delivery?.id}/redeliver`, undefined],
    ] as const)
      expectProblem(
        await call(path, { method, ...(body === undefined ? {} : { body }) }, stranger),
        404,
        'not_found',
      );
    const theirs = await call('/v1/webhooks', {}, stranger);
    expect((theirs.json as { webhooks: { id: string }[] }).webhooks.map((row) => row.id)).not.toContain(
      webhook.id,
    );
    expect((await call(base)).status).toBe(200);
  });

  it('needs the webhooks scopes: a token without them is 403 insufficient_scope', async () => {
    const reader = await createAccount(fixture.state.api, ['profiles:read', 'webhooks:read']);
    expectProblem(
      await call('/v1/webhooks', {}, await createAccount(fixture.state.api, ['profiles:read'])),
      403,
      'insufficient_scope',
    );
    expect((await call('/v1/webhooks', {}, reader)).status).toBe(200);
    expectProblem(
      await call(
        '/v1/webhooks',
        { method: 'POST', body: { url: 'https://example.com/h', events: ['ping'] } },
        reader,
      ),
      403,
      'insufficient_scope',
    );
  });

  it('does not follow a redirect to another host: the delivery fails and the other host gets nothing', async () => {
    const elsewhere = await new WebhookReceiver().start();
    try {
      const webhook = await createWebhook('/moved');
      fixture.receiver.answerAlways('/moved', {
        status: 307,
        location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/stolen`,
      });
      await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
      await deliverAfter();
      const [delivery] = await deliveries(webhook.id);
      expect(delivery).toMatchObject({ status: 'pending', attempt: 1, response_status: 307 });
      expect(delivery?.error).toMatch(
        /^the endpoint redirected to localhost:\d+; redirects are not followed$/,
      );
      expect(elsewhere.received).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('deletes an endpoint with its deliveries', async () => {
    const webhook = await createWebhook('/deleted');
    expect((await call(`/v1/webhooks/${webhook.id}`, { method: 'DELETE' })).status).toBe(204);
    expectProblem(await call(`/v1/webhooks/${webhook.id}/deliveries`), 404, 'not_found');
  });
}
