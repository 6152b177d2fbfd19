import { describe, expect, it } from 'vitest';
import { EDE } from '../src/index.js';
import {
  type DnsConformanceFixture,
  defined,
  NOERROR,
  NOTIMP,
  NXDOMAIN,
  SERVFAIL,
} from './dns-conformance.fixture.js';
import { answerData, edeOf, optOf, queryMessage, rcodeOf } from './support/dns-client.js';
import { openStream } from './support/stream-client.js';
import { MANY_ADDRESSES, UPSTREAM_V4 } from './support/test-upstream.js';

/** Node's own resolver, and raw queries over UDP and TCP (RFC 1035, 6891, 7766, 8914). */
export function dnsOverPlainTransports(fx: DnsConformanceFixture): void {
  const { udp, resolverFor, useBlockMode } = fx;
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
      expect([...fx.store.newestFirst()][0]).toMatchObject({
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
      expect(fx.upstream.askedOverTcp).toContain('many.example');
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
      const client = await openStream(fx.do53.address.port);
      try {
        client.send(
          queryMessage('held.example', 'A', 1),
          queryMessage('ads.example', 'A', 2),
          queryMessage('alias.example', 'A', 3),
        );
        // The upstream holds the first: the two after it are answered while it waits.
        const early = await client.received(2);
        expect(early.map((answer) => answer.id).sort()).toEqual([2, 3]);
        fx.upstream.release();
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
      const client = await openStream(fx.do53.address.port);
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
      const client = await openStream(fx.do53.address.port);
      try {
        client.send(Buffer.from('this is not a DNS message'), queryMessage('ads.example', 'A', 7));
        const [answer] = await client.received(1);
        expect(answer?.id).toBe(7);
      } finally {
        client.close();
      }
    });

    it('still answers a client that closed its side after sending', async () => {
      const client = await openStream(fx.do53.address.port);
      client.send(queryMessage('news.example', 'A', 9));
      client.socket.end();
      const [answer] = await client.received(1);
      expect(answerData(defined(answer))).toEqual([`A ${UPSTREAM_V4}`]);
      await client.closed;
    });

    it('closes a connection that sends half a message and goes quiet', async () => {
      const client = await openStream(fx.do53.address.port);
      client.socket.write(Buffer.from([0, 40, 1, 2, 3]));
      await client.closed;
      expect(client.answers).toEqual([]);
      // The listener itself carries on.
      expect(rcodeOf(await udp(queryMessage('ads.example', 'A')))).toBe(NXDOMAIN);
    });
  });
}
