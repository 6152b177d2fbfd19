import { standardWebhookSignatureHeader } from '@svc/adapters';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

/** The signatures svc sends are those of the Standard Webhooks reference implementation, byte for byte. */
describe(standardWebhookSignatureHeader.name, () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1_614_265_330;
  const body = '{"test": 2432232314}';

  it('matches the reference signer on the specification’s example', () => {
    const reference = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
    expect(standardWebhookSignatureHeader([secret], id, timestamp, body)).toBe(reference);
    expect(reference).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs once per secret, each verifying on its own', () => {
    const other = `whsec_${Buffer.from('the rotated secret value!').toString('base64')}`;
    const header = standardWebhookSignatureHeader([secret, other], id, timestamp, body);
    expect(header.split(' ')).toHaveLength(2);
    // Each secret's reference signature is among them, so a receiver holding either verifies the message.
    for (const key of [secret, other])
      expect(header.split(' ')).toContain(new Webhook(key).sign(id, new Date(timestamp * 1000), body));
  });
});
