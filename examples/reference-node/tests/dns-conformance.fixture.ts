import { Resolver } from 'node:dns/promises';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import {
  opensslMissing,
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '@svc/testing/self-signed-certificate';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DnsResolver, Do53Listener, DohListener, QueryLogStore, StreamListener } from '../src/index.js';
import { udpExchange } from './support/dns-client.js';
import { type TestFilter, testFilter } from './support/node-filter.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

export const NOERROR = 0;
export const SERVFAIL = 2;
export const NXDOMAIN = 3;
export const NOTIMP = 4;
/** The negative TTL of the SOA the node makes up (its TTL and MINIMUM alike). */
export const NEGATIVE_TTL = 60;
const RULES: NodeProfileDocument['rules'] = {
  // A deny rule stands for a listed name here, which the decision function blocks the same way (block mode,
  // EDE 17); compiled lists downloaded by the kit are tested in test/e2e/filtering.
  deny: ['ads.example', 'blocked-target.example'],
  // The operator blocks this name whatever the profile says, allow rule included.
  allow: ['operator-blocked.example'],
  rewrites: [
    { pattern: 'alias.example', answer: 'target.example' },
    { pattern: 'to-blocked.example', answer: 'blocked-target.example' },
    { pattern: 'loop-a.example', answer: 'loop-b.example' },
    { pattern: 'loop-b.example', answer: 'loop-a.example' },
    { pattern: 'router.home', answer: '192.168.1.1' },
  ],
};
/** The operator block the tests enforce, as the operator blocks file brings it to the node. */
const OPERATOR_BLOCK = {
  id: 'ob-1',
  pattern: 'operator-blocked.example',
  reason_code: 'abuse' as const,
  public_ref: 'ref-2026-117',
  pops: [],
  jurisdictions: [],
  expires_at: null,
};

export function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}
/**
 * The reference node's DNS side on loopback, started once per file: UDP, TCP and HTTPS listeners (TLS
 * when openssl is there) over a test filter, with an authoritative fixture upstream; every test starts in
 * nxdomain block mode.
 */
export function useReferenceResolver() {
  let upstream: TestUpstream;
  let store: QueryLogStore;
  let filter: TestFilter;
  let do53: Do53Listener;
  let doh: DohListener;
  let dot: StreamListener | null = null;
  let certificate: SelfSignedCertificate | null = null;
  /** The DoT side (its tests are skipped when it is off). */
  const tls = () => {
    if (dot === null || certificate === null) throw new Error('DoT is off: openssl is missing');
    return { port: dot.address.port, certificate: certificate.certificate, caFile: certificate.caFile };
  };
  const udp = (message: Buffer) => udpExchange(do53.address, message);
  const resolverFor = () => {
    const resolver = new Resolver({ timeout: 3_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${do53.address.port}`]);
    return resolver;
  };
  const useBlockMode = (block_mode: NodeProfileDocument['settings']['block_mode']) =>
    filter.apply(profileDocument({ settings: { block_mode }, rules: RULES }));

  beforeAll(async () => {
    upstream = await startTestUpstream();
    store = await QueryLogStore.open();
    filter = await testFilter(profileDocument({ rules: RULES }));
    await filter.block([OPERATOR_BLOCK]);
    const resolver = new DnsResolver({
      profile: () => filter.profile,
      upstream,
      upstreamTimeoutMs: 2_000,
      record: (query) => store.append(query),
    });
    const limits = { idleTimeoutMs: 300, maxInFlight: 10 };
    do53 = await Do53Listener.listen(resolver, '127.0.0.1', 0, limits);
    doh = await DohListener.listen(resolver, '127.0.0.1', 0);
    if (opensslMissing === undefined) {
      certificate = selfSignedCertificate();
      dot = await StreamListener.tls(resolver, '127.0.0.1', 0, certificate, limits);
    } else console.warn(`DoT tests skipped: ${opensslMissing}`);
  });
  afterAll(async () => {
    await Promise.all([do53?.close(), doh?.close(), dot?.close(), upstream?.close(), filter?.close()]);
  });
  beforeEach(() => useBlockMode('nxdomain'));

  return {
    get upstream(): TestUpstream {
      return upstream;
    },
    get store(): QueryLogStore {
      return store;
    },
    get filter(): TestFilter {
      return filter;
    },
    get do53(): Do53Listener {
      return do53;
    },
    get doh(): DohListener {
      return doh;
    },
    get dot(): StreamListener | null {
      return dot;
    },
    get certificate(): SelfSignedCertificate | null {
      return certificate;
    },
    tls,
    udp,
    resolverFor,
    useBlockMode,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type DnsConformanceFixture = ReturnType<typeof useReferenceResolver>;
