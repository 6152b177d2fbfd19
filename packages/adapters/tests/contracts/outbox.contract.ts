import type { OutboxRelay, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RecordingBus } from '../support/recording-bus.js';

/** One implementation of the outbox under test: a unit of work and two relays sharing its store. */
export interface OutboxUnderTest {
  uow: UnitOfWork;
  relay: OutboxRelay;
  /** A second relay on the same store (another server). */
  otherRelay: OutboxRelay;
  dispose(): Promise<void>;
}

/** The transactional outbox's guarantees; run against each implementation. */
export function runOutboxContract(
  name: string,
  make: (bus: RecordingBus) => Promise<OutboxUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`transactional outbox contract: ${name}`, () => {
    const bus = new RecordingBus();
    let sut: OutboxUnderTest;

    beforeAll(async () => {
      sut = await make(bus);
    }, 60_000);
    afterAll(async () => sut.dispose());
    beforeEach(async () => {
      await sut.relay.drain();
      bus.published.length = 0;
    });

    const payloads = () => bus.published.map((delivery) => delivery.payload);

    it('publishes committed messages once, in commit order', async () => {
      await sut.uow.run(async (tx) => {
        await tx.outbox.enqueue({ subject: 'profiles.a', payload: { n: 1 } });
        await tx.outbox.enqueue({ subject: 'profiles.b', payload: { n: 2 } });
      });
      await sut.uow.run(async (tx) => tx.outbox.enqueue({ subject: 'profiles.a', payload: { n: 3 } }));
      expect(await sut.relay.drain()).toBe(3);
      expect(payloads()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(bus.published.map((delivery) => delivery.subject)).toEqual([
        'profiles.a',
        'profiles.b',
        'profiles.a',
      ]);
      expect(new Set(bus.published.map((delivery) => delivery.messageId)).size).toBe(3);
      expect(await sut.relay.drain()).toBe(0);
    });

    it('publishes nothing of a rolled-back transaction', async () => {
      await expect(
        sut.uow.run(async (tx) => {
          await tx.outbox.enqueue({ subject: 'profiles.a', payload: { n: 'lost' } });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await sut.relay.drain()).toBe(0);
      expect(bus.published).toEqual([]);
    });

    it('keeps a message whose publish failed, and what follows it, for the next drain, in order', async () => {
      for (const n of [1, 2, 3])
        await sut.uow.run(async (tx) => tx.outbox.enqueue({ subject: 's', payload: { n } }));
      bus.failNext(1);
      await expect(sut.relay.drain()).rejects.toThrow('bus unavailable');
      expect(bus.published).toEqual([]);
      expect(await sut.relay.drain()).toBe(3);
      expect(payloads()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('publishes each message once when two relays drain at the same time', async () => {
      for (let n = 0; n < 30; n += 1)
        await sut.uow.run(async (tx) => tx.outbox.enqueue({ subject: 'order', payload: { n } }));
      await Promise.all([
        sut.relay.drain(),
        sut.otherRelay.drain(),
        sut.relay.drain(),
        sut.otherRelay.drain(),
      ]);
      await sut.relay.drain();
      expect(payloads()).toEqual(Array.from({ length: 30 }, (_, n) => ({ n })));
    });
  });
}
