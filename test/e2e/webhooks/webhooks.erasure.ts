import { UnitOfWork } from '@svc/domain';
import { type AccountErasureScheduler, AccountErasureSchedulerToken } from '@svc/http-server';
import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { DAY, type WebhooksFixture } from './webhooks.fixture.js';

/** Account deletion (spec 4.8): its events reach the endpoints, and the erasure removes the endpoints. */
export function describeWebhooksOfDeletedAccount(fixture: WebhooksFixture): void {
  it('sends account.deletion_requested, and erases the endpoints with the account', async () => {
    const { api } = fixture.state;
    const owner = await createAccount(api, ['webhooks:read', 'webhooks:write']);
    const webhook = await fixture.createWebhook(
      '/leaving',
      { events: ['account.deletion_requested'] },
      owner,
    );
    const session = { cookie: `svc_session=${owner.cookie}` };
    expect((await send(`${api.url}/v1/auth/me`, { method: 'DELETE', headers: session })).status).toBe(202);
    await fixture.deliverAfter();
    const [request] = fixture.receiver.at('/leaving');
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ type: 'account.deletion_requested' });

    api.clock.advance(30 * DAY + 1_000);
    const erasure = await api.container.getAsync<AccountErasureScheduler>(AccountErasureSchedulerToken);
    expect(await erasure.runOnce()).toBeGreaterThanOrEqual(1);
    // The account is gone, so nobody can look; the operator's view of the store is the test's.
    expectProblem(await fixture.call(`/v1/webhooks/${webhook.id}`, {}, owner), 401, 'unauthenticated');
    const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
    expect(await uow.run((tx) => tx.webhooks.findById(webhook.id))).toBeNull();
  });
}
