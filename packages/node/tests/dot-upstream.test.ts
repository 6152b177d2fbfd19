import { selfSignedCertificate } from '@svc/testing/self-signed-certificate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDns, startDns } from './support/dns-service.fixture.js';
import { ask, toolMissing } from './support/dns-tools.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';
import { startTlsFront, type TlsFront } from './support/tls-front.js';

// DNSSEC as the README states it: DO and CD are passed on, and AD only from an upstream reached over DoT.
describe.skipIf(toolMissing('kdig') !== undefined)('svc-node with a DNS-over-TLS upstream (issue 41)', () => {
  let upstream: TestUpstream;
  let front: TlsFront;
  let overTls: RunningDns;
  let overUdp: RunningDns;
  const upstreamCertificate = selfSignedCertificate();

  beforeAll(async () => {
    upstream = await startTestUpstream();
    front = await startTlsFront(upstream, upstreamCertificate);
    overTls = await startDns([], {
      upstreams: [
        {
          host: '127.0.0.1',
          port: front.port,
          transport: 'tls',
          tlsName: 'localhost',
          ca: upstreamCertificate.certificate,
        },
      ],
    });
    overUdp = await startDns([upstream]);
  });
  afterAll(async () => {
    await Promise.all([overTls?.close(), overUdp?.close()]);
    await front?.close();
    await upstream?.close();
  });

  it('resolves through the DoT upstream, verifying its certificate', async () => {
    const answer = await ask('kdig', { port: overTls.port.dns, name: 'dot-upstream.example', edns: true });
    expect(answer.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
    expect(upstream.askedOverTcp).toContain('dot-upstream.example');
  });

  it('passes AD on from the DoT upstream to a client that sent DO, and to no other', async () => {
    const withDo = await ask('kdig', {
      port: overTls.port.dns,
      name: 'signed.example',
      edns: true,
      dnssec: true,
    });
    const withoutDo = await ask('kdig', { port: overTls.port.dns, name: 'signed.example', edns: true });
    expect(withDo.flags).toContain('ad');
    expect(withoutDo.flags).not.toContain('ad');
  });

  it('clears the AD bit an upstream over UDP set, whoever asks', async () => {
    const answer = await ask('kdig', {
      port: overUdp.port.dns,
      name: 'signed-udp.example',
      edns: true,
      dnssec: true,
    });
    expect(answer.status).toBe('NOERROR');
    expect(answer.flags).not.toContain('ad');
  });

  it('fails a DoT upstream whose certificate does not carry the expected name (SERVFAIL, EDE 23)', async () => {
    const wrongName = await startDns([], {
      upstreams: [
        {
          host: '127.0.0.1',
          port: front.port,
          transport: 'tls',
          tlsName: 'other.example',
          ca: upstreamCertificate.certificate,
        },
      ],
    });
    try {
      const answer = await ask('kdig', { port: wrongName.port.dns, name: 'mitm.example', edns: true });
      expect(answer.status).toBe('SERVFAIL');
      expect(answer.ede?.code).toBe(23);
    } finally {
      await wrongName.close();
    }
  });
});
