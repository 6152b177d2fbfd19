import { Webhook as StandardWebhook } from 'standardwebhooks';
import { expect, it } from 'vitest';
import { SECOND, type WebhooksFixture } from './webhooks.fixture.js';

/** The headers Standard Webhooks verifies, as the receiver got them. */
function signed(headers: Record<string, unknown>): Record<string, string> {
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
}

/** Signing, events, order and retries, as a receiver on loopback sees them (issue 40). */
export function describeWebhookDelivery(fixture: WebhooksFixture): void {
  const { receiver, call, createWebhook, deliveries, createProfile, deliverAfter } = fixture;

  it('create answers the whsec_ secret once; a ping is signed as Standard Webhooks verifies', async () => {
    const webhook = await createWebhook('/ping');
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const read = await call(`/v1/webhooks/${webhook.id}`);
    expect(read.status).toBe(200);
    expect(read.json).not.toHaveProperty('secret');
    const ping = await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    expect(ping.status, ping.text).toBe(202);
    expect(ping.json).toMatchObject({ status: 'pending', attempt: 0, event_type: 'ping' });
    await deliverAfter();
    const [request] = receiver.at('/ping');
    expect(request?.headers['content-type']).toBe('application/json');
    const verified = new StandardWebhook(webhook.secret).verify(
      request?.body ?? '',
      signed(request?.headers ?? {}),
    );
    expect(verified).toMatchObject({ type: 'ping', data: { webhook_id: webhook.id } });
    expect(() =>
      new StandardWebhook(`whsec_${btoa('another secret!!')}`).verify(
        request?.body ?? '',
        signed(request?.headers ?? {}),
      ),
    ).toThrow();
    const [delivery] = await deliveries(webhook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt: 1, response_status: 204, error: null });
    expect(delivery?.message_id).toBe(request?.headers['webhook-id']);
    expect(delivery?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('sends profile.created, profile.updated with the new version and profile.deleted, in order', async () => {
    const webhook = await createWebhook('/profiles', {
      events: ['profile.created', 'profile.updated', 'profile.deleted'],
    });
    const profileId = await createProfile('Events');
    const patched = await call(`/v1/profiles/${profileId}`, { method: 'PATCH', body: { name: 'Renamed' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await call(`/v1/profiles/${profileId}`, { method: 'DELETE' })).status).toBe(204);
    for (let round = 0; round < 3; round += 1) await deliverAfter();
    const bodies = receiver.at('/profiles').map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type)).toEqual([
      'profile.created',
      'profile.updated',
      'profile.deleted',
    ]);
    expect(bodies[1].data).toEqual({ profile_id: profileId, name: 'Renamed', version: 2 });
    expect(bodies[2].data).toEqual({ profile_id: profileId, version: 3 });
    expect((await deliveries(webhook.id)).every((delivery) => delivery.status === 'succeeded')).toBe(true);
  });

  it('sends one profile.updated per version, in version order, under concurrent writes', async () => {
    await createWebhook('/versions', { events: ['profile.updated'] });
    const profileId = await createProfile('Contended');
    const writes = Array.from({ length: 6 }, (_, index) =>
      call(`/v1/profiles/${profileId}`, { method: 'PATCH', body: { name: `Write ${index}` } }),
    );
    expect((await Promise.all(writes)).map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 200,
    ]);
    for (let round = 0; round < 6; round += 1) await deliverAfter();
    const versions = receiver.at('/versions').map((request) => JSON.parse(request.body).data.version);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('retries after 500 with exponential backoff, and nothing after the failing message overtakes it', async () => {
    const webhook = await createWebhook('/flaky');
    receiver.answerNext('/flaky', { status: 500 }, { status: 500 });
    await createProfile('First');
    await createProfile('Second');
    await deliverAfter();
    expect(receiver.at('/flaky')).toHaveLength(1);
    const queued = await deliveries(webhook.id);
    const first = queued.find((delivery) => delivery.attempt === 1);
    expect(first).toMatchObject({ status: 'pending', attempt: 1, response_status: 500 });
    expect(first?.error).toContain('HTTP 500');
    expect(
      queued.filter((delivery) => delivery.attempt === 0),
      'the second waits, untried',
    ).toHaveLength(1);
    await deliverAfter(9 * SECOND);
    expect(receiver.at('/flaky'), 'not due before 10 s').toHaveLength(1);
    await deliverAfter(1 * SECOND);
    expect(receiver.at('/flaky')).toHaveLength(2);
    await deliverAfter(19 * SECOND);
    expect(receiver.at('/flaky'), 'the second wait is 20 s').toHaveLength(2);
    await deliverAfter(1 * SECOND);
    const names = receiver.at('/flaky').map((request) => JSON.parse(request.body).data.name);
    expect(names).toEqual(['First', 'First', 'First', 'Second']);
    const ids = receiver.at('/flaky').map((request) => request.headers['webhook-id']);
    expect(new Set(ids.slice(0, 3)).size, 'one webhook-id over the retries').toBe(1);
  });

  it('redelivers the same message (same webhook-id and body) as a new delivery', async () => {
    const webhook = await createWebhook('/redeliver');
    await createProfile('Again');
    await deliverAfter();
    const [original] = await deliveries(webhook.id);
    const answer = await call(`/v1/webhooks/${webhook.id}/deliveries/${original?.id}/redeliver`, {
      method: 'POST',
    });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json).toMatchObject({ status: 'pending', message_id: original?.message_id });
    await deliverAfter();
    const [first, second] = receiver.at('/redeliver');
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    expect(await deliveries(webhook.id)).toHaveLength(2);
  });

  it('signs with both secrets during a rotation’s overlap, then with the new one only', async () => {
    const webhook = await createWebhook('/rotate');
    const rotated = await call(`/v1/webhooks/${webhook.id}/rotate-secret`, {
      method: 'POST',
      body: { overlap_hours: 1 },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const { secret } = rotated.json as { secret: string };
    expect(secret).not.toBe(webhook.secret);
    await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    await deliverAfter();
    const [request] = receiver.at('/rotate');
    expect(String(request?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [webhook.secret, secret])
      expect(
        new StandardWebhook(key).verify(request?.body ?? '', signed(request?.headers ?? {})),
      ).toBeTruthy();
    fixture.state.api.clock.advance(3_600 * SECOND);
    await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    await deliverAfter();
    expect(String(receiver.at('/rotate')[1]?.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });
}
