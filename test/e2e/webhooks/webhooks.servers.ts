import { Clock, SecretBox, UnitOfWork, WebhookDispatcher, WebhookSender } from '@svc/domain';
import { WebhookDispatcherToken } from '@svc/http-server';
import { expect, it } from 'vitest';
import type { WebhooksFixture } from './webhooks.fixture.js';

const MINUTE = 60_000;

/**
 * Several API servers share the deliveries (issue 40): each leases the endpoints it serves, so a message is
 * sent once and in order however many dispatch at once, and one that a dead server held is sent again after
 * its lease.
 */
export function describeTwoServers(fixture: WebhooksFixture): void {
  const { receiver, createWebhook, createProfile } = fixture;

  /** A dispatcher as a second server builds it: its own instance over the same storage. */
  const secondServer = async () => {
    const { container } = fixture.state.api;
    return new WebhookDispatcher({
      uow: await container.getAsync<UnitOfWork>(UnitOfWork),
      sender: await container.getAsync<WebhookSender>(WebhookSender),
      clock: await container.getAsync<Clock>(Clock),
      secretBox: await container.getAsync<SecretBox>(SecretBox),
      batch: 1,
    });
  };

  it('two dispatchers running together send each message once, in order', async () => {
    await createWebhook('/shared', { events: ['profile.created'] });
    const names = Array.from({ length: 12 }, (_, index) => `Shared ${index}`);
    for (const name of names) await createProfile(name);
    const first = await fixture.state.api.container.getAsync<WebhookDispatcher>(WebhookDispatcherToken);
    const second = await secondServer();
    await Promise.all([first.deliverDue(), second.deliverDue(), first.deliverDue(), second.deliverDue()]);
    const seen = receiver.at('/shared').map((request) => JSON.parse(request.body).data.name);
    expect(seen).toEqual(names);
  });

  it('a message leased by a server that died is sent again once its lease ran out', async () => {
    await createWebhook('/orphaned');
    await createProfile('Orphaned');
    const { api } = fixture.state;
    const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
    // A server claims the head and dies before sending it: nothing records the attempt or frees the lease.
    const now = api.clock.now();
    const claimed = await uow.run((tx) =>
      tx.webhooks.claimDue(now, new Date(now.getTime() + 2 * MINUTE), 50),
    );
    expect(claimed.map((delivery) => delivery.eventType)).toContain('profile.created');
    await fixture.deliverAfter();
    expect(receiver.at('/orphaned'), 'leased: not sent by another server').toEqual([]);
    await fixture.deliverAfter(2 * MINUTE);
    expect(receiver.at('/orphaned').map((request) => request.type)).toEqual(['profile.created']);
  });
}
