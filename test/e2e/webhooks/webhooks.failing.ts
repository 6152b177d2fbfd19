import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { DAY, HOUR, type WebhooksFixture } from './webhooks.fixture.js';

/** An endpoint failing for three days (issue 40): disabled, its owners emailed, resumed by PATCH. */
export function describeFailingEndpoint(fixture: WebhooksFixture): void {
  const { receiver, call, createWebhook, deliveries, createProfile, deliverAfter } = fixture;

  it('disables an endpoint failing for three days and emails the owner; enabled: true resumes it', async () => {
    const webhook = await createWebhook('/down');
    receiver.answerAlways('/down', { status: 503 });
    await createProfile('Down');
    await deliverAfter();
    for (let elapsed = 0; elapsed <= 3 * DAY; elapsed += 6 * HOUR) await deliverAfter(6 * HOUR);
    const read = await call(`/v1/webhooks/${webhook.id}`);
    expect(read.json).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect((await deliveries(webhook.id))[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
    const attempts = receiver.at('/down').length;
    expect(attempts).toBeGreaterThan(10);
    const disabledMail = (texts: string[]) =>
      texts.some((text) => text.includes('/down') && text.includes('disabled'));
    const mails = await eventually(() => fixture.state.api.mailTo(fixture.state.owner.email), disabledMail);
    expect(disabledMail(mails)).toBe(true);

    await createProfile('While disabled');
    await deliverAfter(HOUR);
    expect(receiver.at('/down')).toHaveLength(attempts);

    receiver.answerAlways('/down', undefined);
    const resumed = await call(`/v1/webhooks/${webhook.id}`, { method: 'PATCH', body: { enabled: true } });
    expect(resumed.json).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    await deliverAfter();
    expect(receiver.at('/down').at(-1)?.type).toBe('ping');
  });
}
