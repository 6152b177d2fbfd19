import { NATS_TEST_URL, natsSkipReason } from '@svc/testing/nats';
import { describe, expect, it } from 'vitest';
import {
  createMessageBus,
  InProcessMessageBus,
  NatsMessageBus,
  natsServers,
  subjectMatches,
} from '../src/index.js';
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

describe(natsServers.name, () => {
  it('takes the user and password out of a NATS_URL, URL-decoded, and gives the servers without them', () => {
    expect(natsServers('nats://svc-api:p%40ss%2Fw0rd@nats-1:4222,tls://nats-2:4222, nats://nats-3')).toEqual({
      servers: ['nats://nats-1:4222', 'tls://nats-2:4222', 'nats://nats-3'],
      credentials: { user: 'svc-api', pass: 'p@ss/w0rd' },
    });
  });

  it('names no user when the URL has none (the local development server)', () => {
    expect(natsServers('nats://127.0.0.1:4222')).toEqual({
      servers: ['nats://127.0.0.1:4222'],
      credentials: {},
    });
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
