import { type WebhookDeliveryScheduler, WebhookDeliverySchedulerToken } from '@svc/http-server';
import { verifyWebhook, WebhookVerificationError } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkScenario } from '../../support/sdk-scenario.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

/**
 * Signed webhooks through the SDK (issue 40), delivered to a receiver on loopback (the scenario's server runs
 * with SVC_OUTBOUND_ALLOW_PRIVATE) and checked with the SDK's own verifier.
 */
export function describeWebhooks(scenario: SdkScenario): void {
  describe('webhooks (issue 40)', () => {
    const receiver = new WebhookReceiver();
    beforeAll(async () => {
      await receiver.start();
    });
    afterAll(async () => {
      await receiver.close();
    });
    const deliver = async () =>
      (
        await scenario.api.container.getAsync<WebhookDeliveryScheduler>(WebhookDeliverySchedulerToken)
      ).runOnce();

    it('creates, pings, verifies, redelivers, rotates, updates and deletes an endpoint', async () => {
      const owner = await scenario.signedIn('webhooks');
      const { secret: token } = await owner.session.tokens.create({
        name: 'hooks',
        scopes: ['webhooks:read', 'webhooks:write'],
      });
      const { webhooks } = scenario.client({ token });
      const created = await webhooks.create({ url: `${receiver.url}/sdk`, events: ['profile.created'] });
      expect(created.secret).toMatch(/^whsec_/);
      expect((await webhooks.list().toArray()).map((each) => each.id)).toEqual([created.id]);
      expect((await webhooks.get(created.id)).url).toBe(`${receiver.url}/sdk`);
      expect(await webhooks.test(created.id)).toMatchObject({ event_type: 'ping', status: 'pending' });
      await deliver();
      const [request] = receiver.at('/sdk');
      const headers = request?.headers as Record<string, string>;
      const now = scenario.api.clock.now();
      const event = await verifyWebhook(request?.body ?? '', headers, created.secret, { now });
      expect(event.type === 'ping' && event.data.webhook_id).toBe(created.id);
      await expect(verifyWebhook(`${request?.body} `, headers, created.secret, { now })).rejects.toThrow(
        WebhookVerificationError,
      );
      const [delivery] = await webhooks.deliveries(created.id).toArray();
      expect(delivery).toMatchObject({ status: 'succeeded', response_status: 204 });
      expect(await webhooks.redeliver(created.id, delivery?.id ?? '')).toMatchObject({
        message_id: delivery?.message_id,
      });
      const rotated = await webhooks.rotateSecret(created.id, { overlap_hours: 2 });
      expect(rotated.secret).not.toBe(created.secret);
      expect((await webhooks.update(created.id, { description: 'ops' })).description).toBe('ops');
      await webhooks.delete(created.id);
      expect(await webhooks.list().toArray()).toEqual([]);
    });
  });
}
