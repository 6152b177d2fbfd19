import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { decode, encode } from 'dns-packet';
import { afterAll, describe, expect, it } from 'vitest';
import { DnsResolver, type ProfileInForce, QueryLogStore } from '../src/index.js';
import { answerData, edeOf, queryMessage, rcodeOf } from './support/dns-client.js';
import { type TestFilter, testFilter } from './support/node-filter.js';

const SERVFAIL = 2;

/** A loopback UDP port nothing listens on. */
async function silentPort(): Promise<number> {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/**
 * An upstream on loopback that answers each query first with `lies` (forged answers under the query's own id),
 * then, if `honest`, with the true answer `192.0.2.53`: what an attacker racing the real upstream sends.
 */
async function racedUpstream(
  lies: (query: ReturnType<typeof decode>) => Buffer[],
  honest: boolean,
): Promise<{ port: number; close: () => Promise<void> }> {
  const socket = createSocket('udp4');
  socket.on('message', (message, sender) => {
    const query = decode(message);
    for (const lie of lies(query)) socket.send(lie, sender.port, sender.address);
    if (honest)
      socket.send(
        encode({
          type: 'response',
          id: query.id ?? 0,
          questions: query.questions ?? [],
          answers: (query.questions ?? []).map((question) => ({
            type: 'A' as const,
            name: question.name,
            ttl: 30,
            data: '192.0.2.53',
          })),
        }),
        sender.port,
        sender.address,
      );
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

describe(DnsResolver.name, () => {
  const filters: TestFilter[] = [];
  /** The kit's filter deciding with a profile document of these changes. */
  const decidingWith = async (changes: Parameters<typeof profileDocument>[0]): Promise<ProfileInForce> => {
    const filter = await testFilter(profileDocument(changes));
    filters.push(filter);
    return filter.profile;
  };
  const policy = (settings: Partial<NodeProfileDocument['settings']>) => decidingWith({ settings });
  afterAll(async () => {
    await Promise.all(filters.map((filter) => filter.close()));
  });

  it('answers SERVFAIL and records an error when the upstream does not answer', async () => {
    const store = await QueryLogStore.open();
    const failures: string[] = [];
    const profile = await policy({ log_client_ip: false });
    const resolver = new DnsResolver({
      profile: () => profile,
      upstream: { host: '127.0.0.1', port: await silentPort() },
      upstreamTimeoutMs: 200,
      record: (query) => store.append(query),
      onUpstreamFailure: (error) => failures.push(error.message),
    });
    const answer = await resolver.resolve(queryMessage('quiet.example', 'A'), {
      transport: 'do53',
      clientIp: '192.0.2.9',
      overUdp: true,
    });
    expect(answer).not.toBeNull();
    expect(rcodeOf(decode(answer?.wire ?? Buffer.alloc(0)))).toBe(SERVFAIL);
    expect(answer?.cacheSeconds).toBe(0);
    expect(failures).toHaveLength(1);
    expect([...store.newestFirst()]).toMatchObject([
      { qname: 'quiet.example', status: 'error', rcode: SERVFAIL, client_ip: '', transport: 'do53' },
    ]);
  });

  it('drops bytes that are not a DNS query, and records nothing when logging is off', async () => {
    const store = await QueryLogStore.open();
    const profile = await decidingWith({ logging: false });
    const resolver = new DnsResolver({
      profile: () => profile,
      upstream: { host: '127.0.0.1', port: await silentPort() },
      upstreamTimeoutMs: 100,
      record: (query) => store.append(query),
    });
    expect(
      await resolver.resolve(Buffer.from('not dns'), { transport: 'doh', clientIp: '', overUdp: false }),
    ).toBeNull();
    await resolver.resolve(queryMessage('unlogged.example', 'A'), {
      transport: 'doh',
      clientIp: '',
      overUdp: false,
    });
    expect(store.size).toBe(0);
  });

  it('takes only an answer to the question it asked, whatever else arrives under its id (RFC 5452)', async () => {
    const upstream = await racedUpstream(
      (query) => [
        encode({
          type: 'response',
          id: query.id ?? 0,
          questions: [{ type: 'A', name: 'bank.example' }],
          answers: [{ type: 'A', name: 'bank.example', ttl: 86_400, data: '203.0.113.66' }],
        }),
        Buffer.from('garbage under the right id'),
        encode({ type: 'query', id: query.id ?? 0, questions: query.questions ?? [] }),
      ],
      true,
    );
    try {
      const store = await QueryLogStore.open();
      const profile = await policy({});
      const resolver = new DnsResolver({
        profile: () => profile,
        upstream: { host: '127.0.0.1', port: upstream.port },
        record: (query) => store.append(query),
      });
      const answer = await resolver.resolve(queryMessage('news.example', 'A'), {
        transport: 'do53',
        clientIp: '192.0.2.9',
        overUdp: true,
      });
      expect(answerData(decode(answer?.wire ?? Buffer.alloc(0)))).toEqual(['A 192.0.2.53']);
    } finally {
      await upstream.close();
    }
  });

  it('answers SERVFAIL with EDE 23 when the upstream sends only garbage', async () => {
    const upstream = await racedUpstream(() => [Buffer.from('not a DNS answer at all')], false);
    try {
      const store = await QueryLogStore.open();
      const profile = await policy({});
      const resolver = new DnsResolver({
        profile: () => profile,
        upstream: { host: '127.0.0.1', port: upstream.port },
        upstreamTimeoutMs: 200,
        record: (query) => store.append(query),
      });
      const answer = await resolver.resolve(queryMessage('news.example', 'A', 1, {}), {
        transport: 'doh',
        clientIp: '',
        overUdp: false,
      });
      const decoded = decode(answer?.wire ?? Buffer.alloc(0));
      expect(rcodeOf(decoded)).toBe(SERVFAIL);
      expect(edeOf(decoded)?.code).toBe(23);
      expect([...store.newestFirst()][0]).toMatchObject({ status: 'error', rcode: SERVFAIL });
    } finally {
      await upstream.close();
    }
  });
});
