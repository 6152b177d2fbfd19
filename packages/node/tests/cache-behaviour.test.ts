import { setTimeout as sleep } from 'node:timers/promises';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES, type RunningDns, startDns } from './support/dns-service.fixture.js';
import { ask, toolMissing } from './support/dns-tools.js';
import {
  startTestUpstream,
  type TestUpstream,
  UPSTREAM_SOA_MINIMUM,
  UPSTREAM_V4,
} from './support/test-upstream.js';

// The cache as kdig sees it (RFC 1035/2181 TTLs, RFC 2308 negative caching, RFC 8767 serve-stale), and the
// decision made before the cache for every query.
describe.skipIf(toolMissing('kdig') !== undefined)('svc-node answer cache, seen by kdig (issue 41)', () => {
  let upstream: TestUpstream;
  let dns: RunningDns;
  const kdig = (name: string) => ask('kdig', { port: dns.port.dns, name, edns: true });
  const timesAsked = (name: string) => upstream.asked.filter((asked) => asked === name).length;

  beforeAll(async () => {
    upstream = await startTestUpstream();
    dns = await startDns([upstream]);
  });
  afterAll(async () => {
    await dns?.close();
    await upstream?.close();
  });

  it('answers again from the cache with TTLs that count down, asking the upstream once', async () => {
    const first = await kdig('ttl-300.cached.example');
    await sleep(1_100);
    const second = await kdig('ttl-300.cached.example');
    expect(first.answers).toMatchObject([{ ttl: 300, data: UPSTREAM_V4 }]);
    expect(second.answers[0]?.ttl).toBeLessThan(300);
    expect(second.answers[0]?.ttl).toBeGreaterThanOrEqual(297);
    expect(timesAsked('ttl-300.cached.example')).toBe(1);
    const rows = [...dns.store.newestFirst()].filter((row) => row.qname === 'ttl-300.cached.example');
    expect(rows.map((row) => row.cache_hit)).toEqual([true, false]);
  });

  it('caches a negative answer for the SOA TTL capped by its MINIMUM (RFC 2308 5)', async () => {
    const first = await kdig('missing.negative.example');
    const second = await kdig('missing.negative.example');
    for (const answer of [first, second]) {
      expect(answer.status).toBe('NXDOMAIN');
      expect(answer.authorities[0]?.type).toBe('SOA');
      expect(answer.authorities[0]?.ttl).toBeLessThanOrEqual(UPSTREAM_SOA_MINIMUM);
    }
    expect(timesAsked('missing.negative.example')).toBe(1);
  });

  it('decides every query before the cache: a name cached as allowed is blocked as soon as a rule says so', async () => {
    expect((await kdig('soon-denied.example')).status).toBe('NOERROR');
    await dns.filter.apply(
      profileDocument({ rules: { ...RULES, deny: [...RULES.deny, 'soon-denied.example'] } }),
    );
    try {
      const blocked = await kdig('soon-denied.example');
      expect(blocked.status).toBe('NXDOMAIN');
      expect(blocked.ede?.code).toBe(17);
    } finally {
      await dns.filter.apply(profileDocument({ rules: RULES }));
    }
  });
});

describe.skipIf(toolMissing('kdig') !== undefined)('svc-node when upstreams fail (issue 41)', () => {
  it('serves a stale answer with TTL 30 and EDE 3 once the upstream is stopped (RFC 8767)', async () => {
    const upstream = await startTestUpstream();
    const dns = await startDns([upstream]);
    try {
      const kdig = (name: string) => ask('kdig', { port: dns.port.dns, name, edns: true });
      expect((await kdig('ttl-1.stale.example')).answers).toMatchObject([{ ttl: 1, data: UPSTREAM_V4 }]);
      await upstream.close();
      await sleep(1_100);
      const stale = await kdig('ttl-1.stale.example');
      expect(stale.status).toBe('NOERROR');
      expect(stale.answers).toMatchObject([{ ttl: 30, data: UPSTREAM_V4 }]);
      expect(stale.ede?.code).toBe(3);
      // A name never answered has nothing stale to serve.
      const never = await kdig('never-cached.example');
      expect(never.status).toBe('SERVFAIL');
      expect(never.ede?.code).toBe(23);
    } finally {
      await dns.close();
    }
  });

  it('fails over from an upstream that does not answer to the next one, then asks the healthy one first', async () => {
    const gone = await startTestUpstream();
    await gone.close();
    const upstream = await startTestUpstream();
    const dns = await startDns([gone, upstream]);
    try {
      const first = await ask('kdig', { port: dns.port.dns, name: 'failover-1.example', edns: true });
      expect(first.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
      expect(dns.service.counters.upstreams.map((server) => server.healthy)).toEqual([false, true]);
      const started = Date.now();
      const second = await ask('kdig', { port: dns.port.dns, name: 'failover-2.example', edns: true });
      expect(second.status).toBe('NOERROR');
      // The server that failed is cooling down: the answer does not wait for its 400 ms attempt.
      expect(Date.now() - started).toBeLessThan(350);
      expect(upstream.asked).toEqual(['failover-1.example', 'failover-2.example']);
    } finally {
      await dns.close();
      await upstream.close();
    }
  });
});

describe.skipIf(toolMissing('kdig') !== undefined)('svc-node client allow-list (issue 41)', () => {
  it('refuses a client outside the allow-list with EDE 18 over every transport, and answers it once reloaded in', async () => {
    const upstream = await startTestUpstream();
    const dns = await startDns([upstream], { allow: ['10.0.0.0/8', '192.168.0.0/16'] });
    try {
      const queries = [
        { port: dns.port.dns, name: 'outside.example', edns: true },
        { port: dns.port.dns, name: 'outside.example', edns: true, tcp: true },
        { port: dns.port.dot, name: 'outside.example', edns: true, tlsCa: dns.certificate.caFile },
        {
          port: dns.port.doh,
          name: 'outside.example',
          edns: true,
          https: 'post' as const,
          tlsCa: dns.certificate.caFile,
        },
      ];
      for (const query of queries) {
        const refused = await ask('kdig', query);
        expect(refused.status).toBe('REFUSED');
        expect(refused.ede?.code).toBe(18);
      }
      expect(upstream.asked).toEqual([]);
      expect(dns.store.size).toBe(0);
      dns.service.reload({ ...dns.settings, allow: ['127.0.0.1/32'] });
      expect((await ask('kdig', queries[0] ?? { port: 0, name: '' })).status).toBe('NOERROR');
    } finally {
      await dns.close();
      await upstream.close();
    }
  });
});
