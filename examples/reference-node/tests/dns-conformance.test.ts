import { Resolver } from 'node:dns/promises';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsResolver, Do53Listener, DohListener, EDE, QueryLogStore, StreamListener } from '../src/index.js';
import {
  answerData,
  dohWithHeaders,
  edeOf,
  optOf,
  queryMessage,
  rcodeOf,
  udpExchange,
} from './support/dns-client.js';
import { ask, type DnsTool, toolMissing } from './support/dns-tools.js';
import { type TestFilter, testFilter } from './support/node-filter.js';
import { opensslMissing, type SelfSignedCertificate, selfSignedCertificate } from './support/self-signed.js';
import { openStream } from './support/stream-client.js';
import {
  MANY_ADDRESSES,
  startTestUpstream,
  type TestUpstream,
  UPSTREAM_SOA_MINIMUM,
  UPSTREAM_V4,
} from './support/test-upstream.js';

const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;
const NOTIMP = 4;
/** The negative TTL of the SOA the node makes up (its TTL and MINIMUM alike). */
const NEGATIVE_TTL = 60;
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

/**
 * examples/reference-node answers like a real resolver (issue 29, RFC 7766, 7858, 8484, 8914, 2308, 6891):
 * clients nobody here wrote (Node's c-ares resolver, kdig, dig) ask its DNS side on loopback over UDP, TCP,
 * TLS and HTTPS, with an authoritative fixture on loopback as the upstream.
 */
describe('reference node DNS conformance', () => {
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

  describe("Node's own resolver (c-ares)", () => {
    it('over UDP: blocked per block mode, allowed through the upstream, rewrites to the target', async () => {
      const resolver = resolverFor();
      await expect(resolver.resolve4('ads.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      await useBlockMode('null');
      expect(await resolver.resolve4('pixel.ads.example')).toEqual(['0.0.0.0']);
      expect(await resolver.resolve6('pixel.ads.example')).toEqual(['::']);
      // No address of another type: NODATA.
      await expect(resolver.resolveMx('ads.example')).rejects.toMatchObject({ code: 'ENODATA' });
      expect(await resolver.resolve4('news.example')).toEqual([UPSTREAM_V4]);
      expect(await resolver.resolve4('alias.example')).toEqual([UPSTREAM_V4]);
      expect(await resolver.resolveCname('alias.example')).toEqual(['target.example']);
      expect(await resolver.resolve4('router.home')).toEqual(['192.168.1.1']);
    });

    it('answers an operator-blocked name NXDOMAIN although the profile allows it', async () => {
      await useBlockMode('null');
      await expect(resolverFor().resolve4('operator-blocked.example')).rejects.toMatchObject({
        code: 'ENOTFOUND',
      });
      expect([...store.newestFirst()][0]).toMatchObject({
        qname: 'operator-blocked.example',
        status: 'blocked',
        operator_code: 'abuse',
        // The operator's public text, which the client's EDE carried and the log shows as the reason (2.11).
        reason_rule: 'ref-2026-117',
        rcode: NXDOMAIN,
      });
    });

    it('asks again over TCP when the UDP answer is truncated, and gets it whole', async () => {
      const addresses = await resolverFor().resolve4('many.example');
      expect(addresses).toHaveLength(MANY_ADDRESSES);
      // The node fetched the long answer from the upstream over TCP for the client's TCP query.
      expect(upstream.askedOverTcp).toContain('many.example');
    });
  });

  describe('over UDP, by the packet', () => {
    it('truncates to 512 octets without EDNS and to the advertised size with it, setting TC', async () => {
      const plain = await udp(queryMessage('many.example', 'A'));
      expect(plain.flag_tc).toBe(true);
      expect(plain.answers).toEqual([]);
      expect(optOf(plain)).toBeUndefined();
      const small = await udp(queryMessage('many.example', 'A', undefined, { udpPayloadSize: 1232 }));
      expect(small.flag_tc).toBe(true);
      expect(optOf(small)?.udpPayloadSize).toBe(1232);
      const blocked = await udp(queryMessage('ads.example', 'A', undefined, { udpPayloadSize: 4096 }));
      expect(blocked.flag_tc).toBe(false);
    });

    it('answers BADVERS to an EDNS version it does not speak, NOTIMP to another opcode (RFC 6891, 1035)', async () => {
      const badVersion = await udp(queryMessage('news.example', 'A', undefined, { version: 1 }));
      expect(optOf(badVersion)).toMatchObject({ extendedRcode: 1, ednsVersion: 0 });
      expect(rcodeOf(badVersion)).toBe(NOERROR);
      const notify = queryMessage('news.example', 'SOA');
      notify.writeUInt16BE(notify.readUInt16BE(2) | (4 << 11), 2);
      expect(rcodeOf(await udp(notify))).toBe(NOTIMP);
    });

    it('carries EDE 17 with the rule in the OPT record of a blocked answer, and no OPT without EDNS', async () => {
      const withEdns = await udp(queryMessage('ads.example', 'A', undefined, {}));
      expect(edeOf(withEdns)).toEqual({ code: EDE.filtered, text: 'ads.example' });
      const without = await udp(queryMessage('ads.example', 'A'));
      expect(rcodeOf(without)).toBe(NXDOMAIN);
      expect(without.additionals).toEqual([]);
    });

    it('answers SERVFAIL to a rewrite loop instead of following it', async () => {
      const loop = await udp(queryMessage('loop-a.example', 'A', undefined, {}));
      expect(rcodeOf(loop)).toBe(SERVFAIL);
      expect(loop.answers).toEqual([]);
    });
  });

  describe('over TCP (RFC 7766)', () => {
    it('answers pipelined queries on one connection as each is ready, out of order', async () => {
      const client = await openStream(do53.address.port);
      try {
        client.send(
          queryMessage('held.example', 'A', 1),
          queryMessage('ads.example', 'A', 2),
          queryMessage('alias.example', 'A', 3),
        );
        // The upstream holds the first: the two after it are answered while it waits.
        const early = await client.received(2);
        expect(early.map((answer) => answer.id).sort()).toEqual([2, 3]);
        upstream.release();
        const all = await client.received(3);
        expect(all[2]?.id).toBe(1);
        expect(answerData(defined(all[2]))).toEqual([`A ${UPSTREAM_V4}`]);
        expect(answerData(defined(all.find((answer) => answer.id === 3)))).toEqual([
          'CNAME target.example',
          `A ${UPSTREAM_V4}`,
        ]);
      } finally {
        client.close();
      }
    });

    it('answers more pipelined queries than it takes at once, pausing the reading in between', async () => {
      const client = await openStream(do53.address.port);
      try {
        const queries = Array.from({ length: 60 }, (_, id) => queryMessage(`n${id}.ads.example`, 'A', id));
        client.send(...queries);
        const answers = await client.received(60);
        expect(answers.map((answer) => answer.id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
          queries.map((_, id) => id),
        );
        expect(answers.every((answer) => rcodeOf(answer) === NXDOMAIN)).toBe(true);
      } finally {
        client.close();
      }
    });

    it('skips bytes that are no DNS message and answers the next query on the connection', async () => {
      const client = await openStream(do53.address.port);
      try {
        client.send(Buffer.from('this is not a DNS message'), queryMessage('ads.example', 'A', 7));
        const [answer] = await client.received(1);
        expect(answer?.id).toBe(7);
      } finally {
        client.close();
      }
    });

    it('still answers a client that closed its side after sending', async () => {
      const client = await openStream(do53.address.port);
      client.send(queryMessage('news.example', 'A', 9));
      client.socket.end();
      const [answer] = await client.received(1);
      expect(answerData(defined(answer))).toEqual([`A ${UPSTREAM_V4}`]);
      await client.closed;
    });

    it('closes a connection that sends half a message and goes quiet', async () => {
      const client = await openStream(do53.address.port);
      client.socket.write(Buffer.from([0, 40, 1, 2, 3]));
      await client.closed;
      expect(client.answers).toEqual([]);
      // The listener itself carries on.
      expect(rcodeOf(await udp(queryMessage('ads.example', 'A')))).toBe(NXDOMAIN);
    });
  });

  describe('over TLS (RFC 7858)', () => {
    it.skipIf(opensslMissing !== undefined)(
      'answers with the certificate from the settings, which a client verifies',
      async () => {
        const client = await openStream(tls().port, tls().certificate);
        try {
          client.send(queryMessage('ads.example', 'A', 11, {}));
          const [answer] = await client.received(1);
          expect(rcodeOf(defined(answer))).toBe(NXDOMAIN);
          expect(edeOf(defined(answer))).toEqual({ code: EDE.filtered, text: 'ads.example' });
        } finally {
          client.close();
        }
        expect([...store.newestFirst()][0]).toMatchObject({ qname: 'ads.example', transport: 'dot' });
      },
    );

    it.skipIf(opensslMissing !== undefined)(
      'drops a client that speaks plain DNS to the TLS port',
      async () => {
        const client = await openStream(tls().port);
        client.send(queryMessage('ads.example', 'A', 12));
        await client.closed;
        expect(client.answers).toEqual([]);
        const verified = await openStream(tls().port, tls().certificate);
        verified.send(queryMessage('news.example', 'A', 13));
        expect((await verified.received(1))[0]?.id).toBe(13);
        verified.close();
      },
    );
  });

  describe('over HTTPS (RFC 8484)', () => {
    it('says how long the answer may be cached: its smallest TTL, the SOA minimum for negative answers', async () => {
      expect((await dohWithHeaders(doh.url, 'ttl-42.example')).cacheControl).toBe('max-age=42');
      expect((await dohWithHeaders(doh.url, 'ads.example')).cacheControl).toBe(`max-age=${NEGATIVE_TTL}`);
      const missing = await dohWithHeaders(doh.url, 'missing.example');
      expect(rcodeOf(missing.packet)).toBe(NXDOMAIN);
      expect(missing.cacheControl).toBe(`max-age=${UPSTREAM_SOA_MINIMUM}`);
      const loop = await dohWithHeaders(doh.url, 'loop-a.example');
      expect(loop.cacheControl).toBe('max-age=0');
    });

    it('sends a long answer whole, never truncated', async () => {
      const many = await dohWithHeaders(doh.url, 'many.example');
      expect(many.packet.flag_tc).toBe(false);
      expect(many.packet.answers).toHaveLength(MANY_ADDRESSES);
    });
  });

  describe.each(['kdig', 'dig'] satisfies DnsTool[])('%s', (tool) => {
    const missing = toolMissing(tool);
    if (missing !== undefined) console.warn(`${tool} tests skipped: ${missing}`);
    const port = () => do53.address.port;

    it.skipIf(missing !== undefined)(
      'sees a blocked name answered by the block mode with EDE 17 (Filtered)',
      async () => {
        await useBlockMode('null');
        const nulled = await ask(tool, { port: port(), name: 'ads.example', edns: true });
        expect(nulled.status).toBe('NOERROR');
        expect(nulled.answers).toMatchObject([{ type: 'A', data: '0.0.0.0' }]);
        expect(nulled.ede).toEqual({ code: 17, text: 'ads.example' });
        await useBlockMode('nxdomain');
        const denied = await ask(tool, { port: port(), name: 'pixel.ads.example', edns: true });
        expect(denied.status).toBe('NXDOMAIN');
        expect(denied.ede?.code).toBe(17);
      },
    );

    it.skipIf(missing !== undefined)(
      'sees an operator-blocked name NXDOMAIN with EDE 15 (Blocked) on a profile that allows it',
      async () => {
        await useBlockMode('null');
        const blocked = await ask(tool, { port: port(), name: 'operator-blocked.example', edns: true });
        expect(blocked.status).toBe('NXDOMAIN');
        expect(blocked.ede).toEqual({ code: 15, text: 'ref-2026-117' });
      },
    );

    it.skipIf(missing !== undefined)(
      'sees a SOA with the negative TTL in NXDOMAIN and NODATA answers (RFC 2308)',
      async () => {
        const nxdomain = await ask(tool, { port: port(), name: 'ads.example' });
        expect(nxdomain.authorities).toMatchObject([
          { name: 'ads.example.', ttl: NEGATIVE_TTL, type: 'SOA' },
        ]);
        expect(nxdomain.authorities[0]?.data).toMatch(/ 60$/);
        const nodata = await ask(tool, { port: port(), name: 'router.home', type: 'AAAA' });
        expect(nodata.status).toBe('NOERROR');
        expect(nodata.answers).toEqual([]);
        expect(nodata.authorities).toMatchObject([{ type: 'SOA', ttl: NEGATIVE_TTL }]);
        expect(nodata.edns).toBe(false);
      },
    );

    it.skipIf(missing !== undefined)(
      "sees a rewrite to a host name as its CNAME and the target's address",
      async () => {
        const alias = await ask(tool, { port: port(), name: 'alias.example', edns: true });
        expect(alias.answers).toMatchObject([
          { name: 'alias.example.', type: 'CNAME', data: 'target.example.' },
          { name: 'target.example.', type: 'A', data: UPSTREAM_V4 },
        ]);
        // The target is decided like any name: a blocked one answers as blocked after the CNAME.
        const toBlocked = await ask(tool, { port: port(), name: 'to-blocked.example', edns: true });
        expect(toBlocked.status).toBe('NXDOMAIN');
        expect(toBlocked.answers).toMatchObject([{ type: 'CNAME', data: 'blocked-target.example.' }]);
        expect(toBlocked.ede?.code).toBe(17);
      },
    );

    it.skipIf(missing !== undefined)(
      'gets TC over UDP for a long answer and the whole of it over TCP',
      async () => {
        const truncated = await ask(tool, {
          port: port(),
          name: 'many.example',
          edns: true,
          ignoreTruncation: true,
        });
        expect(truncated.flags).toContain('tc');
        expect(truncated.answers).toEqual([]);
        // Asked over UDP, the tool takes the truncated answer as its cue to ask again over TCP.
        const retried = await ask(tool, { port: port(), name: 'many.example', edns: true });
        expect(retried.transport).toBe('TCP');
        expect(retried.answers).toHaveLength(MANY_ADDRESSES);
        const overTcp = await ask(tool, { port: port(), name: 'ads.example', tcp: true, edns: true });
        expect(overTcp.transport).toBe('TCP');
        expect(overTcp.ede?.code).toBe(17);
      },
    );

    it.skipIf(missing !== undefined || opensslMissing !== undefined)(
      'asks over TLS, verifying the certificate, and sees the same answers',
      async () => {
        const overTls = await ask(tool, {
          port: tls().port,
          name: 'ads.example',
          edns: true,
          tlsCa: tls().caFile,
        });
        expect(overTls.status).toBe('NXDOMAIN');
        expect(overTls.ede).toEqual({ code: 17, text: 'ads.example' });
        const alias = await ask(tool, {
          port: tls().port,
          name: 'alias.example',
          tlsCa: tls().caFile,
        });
        expect(alias.answers.map((record) => record.type)).toEqual(['CNAME', 'A']);
      },
    );
  });
});

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}
