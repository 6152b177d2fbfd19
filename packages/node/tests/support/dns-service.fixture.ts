import { Resolver } from 'node:dns/promises';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { type SelfSignedCertificate, selfSignedCertificate } from '@svc/testing/self-signed-certificate';
import { DnsService, type DnsSettings, QueryLogStore } from '../../src/index.js';
import { type TestFilter, testFilter } from './node-filter.js';
import type { TestUpstream } from './test-upstream.js';

/** The rules every node under test filters with: one deny rule and one rewrite. */
export const RULES: NodeProfileDocument['rules'] = {
  deny: ['ads.example'],
  allow: [],
  rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }],
};

/** A node's DNS side on loopback, over the kit's filter, with a certificate made for the run. */
export interface RunningDns {
  service: DnsService;
  /** The settings it started with. */
  settings: DnsSettings;
  filter: TestFilter;
  store: QueryLogStore;
  certificate: SelfSignedCertificate;
  port: { dns: number; dot: number; doh: number };
  /** Node's c-ares resolver pointed at the node's Do53 port. */
  cares(): Resolver;
  close(): Promise<void>;
}

/** What the node under test filters with, and by which clock it decides (default: {@link RULES}, `Date.now`). */
export interface DnsUnderTest {
  document?: NodeProfileDocument;
  now?: () => number;
}

/**
 * Starts Do53, DoT and DoH on free loopback ports in front of these upstreams, with the given changes to the
 * settings (a small attempt timeout, so failover and serve-stale tests stay short).
 */
export async function startDns(
  upstreams: Pick<TestUpstream, 'host' | 'port'>[],
  changes: Partial<DnsSettings> = {},
  underTest: DnsUnderTest = {},
): Promise<RunningDns> {
  const certificate = selfSignedCertificate();
  const filter = await testFilter(underTest.document ?? profileDocument({ rules: RULES }));
  const store = await QueryLogStore.open();
  const any = { host: '127.0.0.1', port: 0 };
  const settings: DnsSettings = {
    listen: { dns: [any], dot: [any], doh: [any] },
    tls: { certificate: certificate.certificate, key: certificate.key },
    allow: ['127.0.0.0/8'],
    cache: { maxBytes: 8 * 1024 * 1024, maxTtlSeconds: 86_400, staleSeconds: 3_600 },
    upstreams: upstreams.map((upstream) => ({
      host: upstream.host,
      port: upstream.port,
      transport: 'udp',
    })),
    upstreamTimeoutMs: 1_500,
    ...changes,
  };
  const service = await DnsService.start({
    settings,
    profile: () => filter.profile,
    record: (query) => store.append(query),
    attemptTimeoutMs: 400,
    ...(underTest.now === undefined ? {} : { now: underTest.now }),
  });
  const addresses = service.addresses;
  const port = {
    dns: addresses.dns[0]?.port ?? 0,
    dot: addresses.dot[0]?.port ?? 0,
    doh: Number(new URL(addresses.doh[0] ?? 'https://x:1').port),
  };
  return {
    service,
    settings,
    filter,
    store,
    certificate,
    port,
    cares: () => {
      const resolver = new Resolver({ timeout: 3_000, tries: 1 });
      resolver.setServers([`127.0.0.1:${port.dns}`]);
      return resolver;
    },
    close: async () => {
      await service.close();
      await Promise.all([store.close(), filter.close()]);
    },
  };
}
