import { Resolver } from 'node:dns/promises';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsResolver, Do53Listener, QueryLogStore } from '../src/index.js';
import { type TestFilter, testFilter } from './support/node-filter.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

const PAUSE_END = Date.parse('2026-11-28T12:00:00.000Z');
const RULES: NodeProfileDocument['rules'] = {
  // A deny rule stands for a listed name: the decision function blocks both alike, and pauses both alike.
  deny: ['ads.example'],
  allow: [],
  rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }],
};

/**
 * A node enforces the owner's timed pause by its own clock (issue 38), without the API: Node's own resolver
 * (c-ares) asks the reference node on loopback while the clock moves past `paused_until`.
 */
describe('reference node: a paused profile', () => {
  let upstream: TestUpstream;
  let filter: TestFilter;
  let do53: Do53Listener;
  let store: QueryLogStore;
  let clock = PAUSE_END - 60_000;

  const resolver = () => {
    const client = new Resolver({ timeout: 3_000, tries: 1 });
    client.setServers([`127.0.0.1:${do53.address.port}`]);
    return client;
  };

  beforeAll(async () => {
    upstream = await startTestUpstream();
    store = await QueryLogStore.open();
    filter = await testFilter(
      profileDocument({ rules: RULES, paused_until: new Date(PAUSE_END).toISOString() }),
    );
    await filter.block([
      {
        id: 'ob-1',
        pattern: 'operator-blocked.example',
        reason_code: 'abuse',
        public_ref: 'ref-2026-117',
        pops: [],
        jurisdictions: [],
        expires_at: null,
      },
    ]);
    const dns = new DnsResolver({
      profile: () => filter.profile,
      upstream,
      upstreamTimeoutMs: 2_000,
      record: (query) => store.append(query),
      now: () => clock,
    });
    do53 = await Do53Listener.listen(dns, '127.0.0.1', 0, { idleTimeoutMs: 300, maxInFlight: 10 });
  });
  afterAll(async () => {
    await Promise.all([do53?.close(), upstream?.close(), filter?.close()]);
  });

  it('forwards a blocked name while paused and blocks it again from paused_until on, with no new document', async () => {
    clock = PAUSE_END - 60_000;
    expect(await resolver().resolve4('ads.example')).toEqual([UPSTREAM_V4]);
    expect([...store.newestFirst()][0]).toMatchObject({ qname: 'ads.example', status: 'allowed' });
    clock = PAUSE_END - 1;
    expect(await resolver().resolve4('www.ads.example')).toEqual([UPSTREAM_V4]);
    clock = PAUSE_END;
    await expect(resolver().resolve4('ads.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect([...store.newestFirst()][0]).toMatchObject({ qname: 'ads.example', status: 'blocked' });
  });

  it('still answers rewrites and operator blocks while paused', async () => {
    clock = PAUSE_END - 30_000;
    expect(await resolver().resolve4('router.home')).toEqual(['192.168.1.1']);
    await expect(resolver().resolve4('operator-blocked.example')).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    expect([...store.newestFirst()][0]).toMatchObject({
      qname: 'operator-blocked.example',
      status: 'blocked',
    });
  });
});
