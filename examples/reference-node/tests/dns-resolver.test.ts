import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import type { NodeProfileDocument } from '@svc/sdk';
import { decode } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { DnsResolver, FilteringPolicy, QueryLogStore } from '../src/index.js';
import { queryMessage, rcodeOf } from './support/dns-client.js';
import { profileDocument } from './support/profile-document.js';

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

function policy(settings: Partial<NodeProfileDocument['settings']>): FilteringPolicy {
  return FilteringPolicy.of(profileDocument({ settings }));
}

describe(DnsResolver.name, () => {
  it('answers SERVFAIL and records an error when the upstream does not answer', async () => {
    const store = await QueryLogStore.open();
    const failures: string[] = [];
    const resolver = new DnsResolver({
      profile: () => policy({ log_client_ip: false }),
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
    const resolver = new DnsResolver({
      profile: () => FilteringPolicy.of(profileDocument({ logging: false })),
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
});
