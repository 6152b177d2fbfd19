import { type WebhookDeliveryScheduler, WebhookDeliverySchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Without SVC_OUTBOUND_ALLOW_PRIVATE (the default): endpoints are https to public addresses only, the address a
 * name resolves to checked on the connection at each delivery (issue 40).
 */
describe('webhook endpoints without SVC_OUTBOUND_ALLOW_PRIVATE', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    api = await startApi('memory');
    owner = await createAccount(api, ['webhooks:read', 'webhooks:write']);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await receiver.close();
  });
  const create = (url: string) =>
    send(`${api.url}/v1/webhooks`, {
      method: 'POST',
      headers: owner.auth,
      body: { url, events: ['profile.created'] },
    });

  it('answers 422 naming url for plain http, credentials and loopback, private or link-local literals', async () => {
    for (const [url, message] of [
      ['http://hooks.example.com/in', 'must be an https URL'],
      ['https://me:pw@hooks.example.com/in', 'must not carry credentials'],
      ['https://127.0.0.1/in', 'must not be a loopback address'],
      ['https://10.1.2.3/in', 'must not be a private address'],
      ['https://[fd00::1]/in', 'must not be a uniqueLocal address'],
      ['https://169.254.169.254/latest/meta-data', 'must not be a linkLocal address'],
    ] as const) {
      const problem = expectProblem(await create(url), 422, 'validation_failed');
      expect(problem.errors, url).toEqual([{ field: 'url', message }]);
    }
  });

  it('accepts a name, then refuses to deliver once it resolves to loopback: nothing reaches the receiver', async () => {
    const answer = await create(`https://localhost:${new URL(receiver.url).port}/internal`);
    expect(answer.status, answer.text).toBe(201);
    const { id } = answer.json as { id: string };
    await send(`${api.url}/v1/webhooks/${id}/test`, { method: 'POST', headers: owner.auth });
    const job = await api.container.getAsync<WebhookDeliveryScheduler>(WebhookDeliverySchedulerToken);
    await job.runOnce();
    const list = await send(`${api.url}/v1/webhooks/${id}/deliveries`, { headers: owner.auth });
    const [delivery] = (list.json as { deliveries: { status: string; error: string; attempt: number }[] })
      .deliveries;
    expect(delivery?.attempt).toBe(1);
    expect(delivery?.status).toBe('pending');
    expect(delivery?.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(receiver.received).toEqual([]);
  });
});
