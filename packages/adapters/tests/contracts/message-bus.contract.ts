import type { BusDelivery, MessageBus } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What every MessageBus must do; run against each implementation. */
export function runMessageBusContract(
  name: string,
  make: () => Promise<MessageBus>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`MessageBus contract: ${name}`, () => {
    let bus: MessageBus;
    const prefix = `t${Math.random().toString(36).slice(2, 8)}`;
    beforeAll(async () => {
      bus = await make();
    });
    afterAll(async () => bus.close());

    it('delivers JSON payloads with their subject and message id', async () => {
      const received: BusDelivery[] = [];
      const subscription = await bus.subscribe(
        `${prefix}.profiles.abc123`,
        (delivery) => void received.push(delivery),
      );
      await bus.publish(`${prefix}.profiles.abc123`, { version: 2, name: 'Home' }, { messageId: '42' });
      await until(() => received.length === 1);
      expect(received[0]).toEqual({
        subject: `${prefix}.profiles.abc123`,
        payload: { version: 2, name: 'Home' },
        messageId: '42',
      });
      await subscription.unsubscribe();
    });

    it('matches * to one token and > to the rest', async () => {
      const one: string[] = [];
      const rest: string[] = [];
      const a = await bus.subscribe(`${prefix}.w.*`, (delivery) => void one.push(delivery.subject));
      const b = await bus.subscribe(`${prefix}.w.>`, (delivery) => void rest.push(delivery.subject));
      for (const subject of ['w.x', 'w.x.y', 'other.x']) await bus.publish(`${prefix}.${subject}`, {});
      await until(() => rest.length === 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(one).toEqual([`${prefix}.w.x`]);
      expect(rest).toEqual([`${prefix}.w.x`, `${prefix}.w.x.y`]);
      await a.unsubscribe();
      await b.unsubscribe();
    });

    it('keeps publish order per subject', async () => {
      const received: number[] = [];
      const subscription = await bus.subscribe(`${prefix}.order`, (delivery) => {
        received.push((delivery.payload as { n: number }).n);
      });
      for (let n = 0; n < 100; n += 1) await bus.publish(`${prefix}.order`, { n });
      await until(() => received.length === 100);
      expect(received).toEqual(Array.from({ length: 100 }, (_, n) => n));
      await subscription.unsubscribe();
    });

    it('stops delivering after unsubscribe, and a failing handler does not reach the publisher', async () => {
      const received: unknown[] = [];
      const failing = await bus.subscribe(`${prefix}.fail`, () => {
        throw new Error('handler failed');
      });
      const subscription = await bus.subscribe(
        `${prefix}.gone`,
        (delivery) => void received.push(delivery.payload),
      );
      await expect(bus.publish(`${prefix}.fail`, {})).resolves.toBeUndefined();
      await subscription.unsubscribe();
      await bus.publish(`${prefix}.gone`, { late: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual([]);
      await failing.unsubscribe();
    });
  });
}
