import { opensslMissing } from '@svc/testing/self-signed-certificate';
import { describe, expect, it } from 'vitest';
import { EDE } from '../src/index.js';
import { type DnsConformanceFixture, defined, NEGATIVE_TTL, NXDOMAIN } from './dns-conformance.fixture.js';
import { dohWithHeaders, edeOf, queryMessage, rcodeOf } from './support/dns-client.js';
import { ask, type DnsTool, toolMissing } from './support/dns-tools.js';
import { openStream } from './support/stream-client.js';
import { MANY_ADDRESSES, UPSTREAM_SOA_MINIMUM, UPSTREAM_V4 } from './support/test-upstream.js';

/** Queries over TLS and HTTPS, and through kdig and dig (RFC 7858, 8484, 2308). */
export function dnsOverTlsHttpsAndTools(fx: DnsConformanceFixture): void {
  const { tls, useBlockMode } = fx;
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
        expect([...fx.store.newestFirst()][0]).toMatchObject({ qname: 'ads.example', transport: 'dot' });
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
      expect((await dohWithHeaders(fx.doh.url, 'ttl-42.example')).cacheControl).toBe('max-age=42');
      expect((await dohWithHeaders(fx.doh.url, 'ads.example')).cacheControl).toBe(`max-age=${NEGATIVE_TTL}`);
      const missing = await dohWithHeaders(fx.doh.url, 'missing.example');
      expect(rcodeOf(missing.packet)).toBe(NXDOMAIN);
      expect(missing.cacheControl).toBe(`max-age=${UPSTREAM_SOA_MINIMUM}`);
      const loop = await dohWithHeaders(fx.doh.url, 'loop-a.example');
      expect(loop.cacheControl).toBe('max-age=0');
    });

    it('sends a long answer whole, never truncated', async () => {
      const many = await dohWithHeaders(fx.doh.url, 'many.example');
      expect(many.packet.flag_tc).toBe(false);
      expect(many.packet.answers).toHaveLength(MANY_ADDRESSES);
    });
  });

  describe.each(['kdig', 'dig'] satisfies DnsTool[])('%s', (tool) => {
    const missing = toolMissing(tool);
    if (missing !== undefined) console.warn(`${tool} tests skipped: ${missing}`);
    const port = () => fx.do53.address.port;

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
}
