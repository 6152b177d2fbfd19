import { expect, it } from 'vitest';
import { DAY, type WebhooksFixture } from './webhooks.fixture.js';

/** Delivered and failed deliveries are purged by the delivery job 30 days after they were queued (issue 40). */
export function describeDeliveryRetention(fixture: WebhooksFixture): void {
  const { call, createWebhook, deliveries, deliverAfter } = fixture;

  const ping = async (webhookId: string): Promise<string> => {
    const answer = await call(`/v1/webhooks/${webhookId}/test`, { method: 'POST' });
    expect(answer.status, answer.text).toBe(202);
    return (answer.json as { id: string }).id;
  };

  it('purges settled deliveries older than 30 days and keeps newer ones and pending ones, whatever their age', async () => {
    const served = await createWebhook('/retention');
    const old = await ping(served.id);
    await deliverAfter();
    // A paused endpoint's ping stays pending however long it waits: it is owed, not settled.
    const paused = await createWebhook('/retention-paused');
    const owed = await ping(paused.id);
    const pause = await call(`/v1/webhooks/${paused.id}`, { method: 'PATCH', body: { enabled: false } });
    expect(pause.status, pause.text).toBe(200);

    await deliverAfter(29 * DAY);
    const recent = await ping(served.id);
    await deliverAfter();
    expect((await deliveries(served.id)).map((delivery) => [delivery.id, delivery.status])).toEqual([
      [recent, 'succeeded'],
      [old, 'succeeded'],
    ]);

    await deliverAfter(2 * DAY);
    expect((await deliveries(served.id)).map((delivery) => delivery.id)).toEqual([recent]);
    expect((await deliveries(paused.id)).map((delivery) => [delivery.id, delivery.status])).toEqual([
      [owed, 'pending'],
    ]);
    const gone = await call(`/v1/webhooks/${served.id}/deliveries/${old}/redeliver`, { method: 'POST' });
    expect(gone.status, gone.text).toBe(404);
  });
}
