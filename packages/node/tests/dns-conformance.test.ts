import type { IncomingHttpHeaders } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { LookupFunction } from 'node:net';
import { decode, encode, RECURSION_DESIRED } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDns, startDns } from './support/dns-service.fixture.js';
import { ask, toolMissing } from './support/dns-tools.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

// Clients nobody here wrote, against the node's listeners on loopback: kdig and dig over UDP, TCP, DoT and DoH
// (HTTP/2 over TLS, GET and POST), and Node's c-ares resolver. Tools that are not installed skip, saying so.
describe('svc-node DNS listeners (issue 41)', () => {
  let upstream: TestUpstream;
  let dns: RunningDns;

  beforeAll(async () => {
    upstream = await startTestUpstream();
    dns = await startDns([upstream]);
  });
  afterAll(async () => {
    await dns?.close();
    await upstream?.close();
  });

  for (const tool of ['kdig', 'dig'] as const) {
    describe.skipIf(toolMissing(tool) !== undefined)(tool, () => {
      it('is answered over UDP and TCP with the upstream address', async () => {
        for (const tcp of [false, true]) {
          const answer = await ask(tool, {
            port: dns.port.dns,
            name: `${tool}-do53-${tcp}.example`,
            edns: true,
            tcp,
          });
          expect(answer.status).toBe('NOERROR');
          expect(answer.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
          expect(answer.transport).toBe(tcp ? 'TCP' : 'UDP');
          expect(answer.flags).toContain('ra');
        }
      });

      it('is answered over DNS over TLS, verifying the certificate (RFC 7858)', async () => {
        const answer = await ask(tool, {
          port: dns.port.dot,
          name: `${tool}-dot.example`,
          edns: true,
          tlsCa: dns.certificate.caFile,
        });
        expect(answer.status).toBe('NOERROR');
        expect(answer.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
      });

      it('is answered over DoH, HTTP/2 over TLS, by POST and by GET (RFC 8484)', async () => {
        for (const https of ['post', 'get'] as const) {
          const answer = await ask(tool, {
            port: dns.port.doh,
            name: `${tool}-doh-${https}.example`,
            edns: true,
            https,
            tlsCa: dns.certificate.caFile,
          });
          expect(answer.status, answer.output).toBe('NOERROR');
          expect(answer.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
          // kdig names the HTTP version it spoke; dig speaks DoH over HTTP/2 only (libnghttp2).
          expect(answer.output).toMatch(
            tool === 'kdig' ? `HTTP/2-${https.toUpperCase()}` : https === 'get' ? '(HTTPS-GET)' : '(HTTPS)',
          );
        }
      });

      it("answers a denied name as the profile's block mode says, with EDE 17, over DoH too", async () => {
        const answer = await ask(tool, {
          port: dns.port.doh,
          name: 'ads.example',
          edns: true,
          https: 'post',
          tlsCa: dns.certificate.caFile,
        });
        expect(answer.status).toBe('NXDOMAIN');
        expect(answer.ede?.code).toBe(17);
        expect(answer.authorities[0]?.type).toBe('SOA');
      });

      it('never sets AD from an upstream reached over UDP, even when DO is asked', async () => {
        const answer = await ask(tool, {
          port: dns.port.dns,
          name: `${tool}-do.example`,
          edns: true,
          dnssec: true,
        });
        expect(answer.status).toBe('NOERROR');
        expect(answer.flags).not.toContain('ad');
      });
    });
  }

  it("is answered to Node's c-ares resolver (dns.promises.Resolver)", async () => {
    const resolver = dns.cares();
    await expect(resolver.resolve4('cares.example')).resolves.toEqual([UPSTREAM_V4]);
    await expect(resolver.resolve4('router.home')).resolves.toEqual(['192.168.1.1']);
    await expect(resolver.resolve4('ads.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('is answered over DoH with HTTP/1.1 too, saying how long the answer may be cached (RFC 8484 5.1)', async () => {
    const query = encode({
      type: 'query',
      id: 0,
      flags: RECURSION_DESIRED,
      questions: [{ type: 'A', name: 'h1.example' }],
    });
    const url = `https://localhost:${dns.port.doh}/dns-query?dns=${query.toString('base64url')}`;
    const response = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const request = httpsGet(url, { ca: dns.certificate.certificate, lookup: loopback }, (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks),
            }),
          );
        });
        request.on('error', reject);
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/dns-message');
    expect(response.headers['cache-control']).toBe('max-age=300');
    expect(decode(response.body).answers).toMatchObject([{ type: 'A', data: UPSTREAM_V4 }]);
  });

  it('sends the upstream a query with EDNS and a payload size of 1232 (DNS Flag Day 2020)', async () => {
    await dns.cares().resolve4('edns-size.example');
    expect(upstream.asked).toContain('edns-size.example');
    expect(upstream.payloadSizes.at(-1)).toBe(1232);
  });
});

/** Resolves `localhost` (the certificate's name) to 127.0.0.1 without asking the system. */
const loopback: LookupFunction = (_hostname, options, callback) => {
  if (typeof options === 'object' && options.all === true)
    callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
