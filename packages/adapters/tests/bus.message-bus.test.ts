import { NATS_TEST_URL, natsSkipReason } from '@svc/testing/nats';
import { describe, expect, it } from 'vitest';
import { createMessageBus, InProcessMessageBus, NatsMessageBus, subjectMatches } from '../src/index.js';
import { runMessageBusContract } from './contracts/message-bus.contract.js';

runMessageBusContract('in-process', async () => new InProcessMessageBus());
runMessageBusContract('NATS', () => NatsMessageBus.connect(NATS_TEST_URL), {
  skip: natsSkipReason !== undefined,
});

describe(subjectMatches.name, () => {
  it.each([
    ['a.b', 'a.b', true],
    ['a.*', 'a.b', true],
    ['a.*', 'a.b.c', false],
    ['a.>', 'a.b.c', true],
    ['a.>', 'a', false],
    ['*.b', 'a.b', true],
    ['a.b', 'a.c', false],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe(createMessageBus.name, () => {
  it('is in-process without NATS_URL', async () => {
    const bus = await createMessageBus({});
    expect(bus).toBeInstanceOf(InProcessMessageBus);
    await bus.close();
  });

  it.skipIf(natsSkipReason !== undefined)('is NATS with NATS_URL', async () => {
    const bus = await createMessageBus({ natsUrl: NATS_TEST_URL });
    expect(bus).toBeInstanceOf(NatsMessageBus);
    await bus.close();
  });
});
