import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { DnsFrameReader, decodeOrNull, framed } from '@svc/node/dns-wire';
import {
  type Answer,
  type DecodedPacket,
  encode,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
  TRUNCATED_RESPONSE,
} from 'dns-packet';

/** The address the test upstream answers every A query with, and its AAAA. */
export const UPSTREAM_V4 = '203.0.113.7';
const UPSTREAM_V6 = '2001:db8::7';
/** TTL of the upstream's records, unless the name says another (`ttl-42.…`). */
const UPSTREAM_TTL = 300;
/** Addresses a `many.…` name has: more than fit one UDP answer of any size. */
export const MANY_ADDRESSES = 100;
/** The upstream's SOA for negative answers: TTL, and the MINIMUM that caps it (RFC 2308). */
const UPSTREAM_SOA_TTL = 900;
export const UPSTREAM_SOA_MINIMUM = 120;

/**
 * An authoritative fixture on 127.0.0.1 standing in for the internet, over UDP and TCP on one port:
 * - A and AAAA of any name ({@link UPSTREAM_V4}, {@link UPSTREAM_V6}); other types NODATA with a SOA;
 * - `missing.…` NXDOMAIN with a SOA;
 * - `many.…` {@link MANY_ADDRESSES} A records (truncated over UDP, whole over TCP);
 * - `ttl-N.…` records of TTL N;
 * - `held.…` answered only once {@link TestUpstream.release} is called.
 * Over UDP it truncates (TC, no records) what exceeds the asker's EDNS size, or 512 without EDNS.
 */
export interface TestUpstream {
  host: string;
  port: number;
  /** Names asked, in order, over either transport. */
  asked: string[];
  /** Names asked over TCP. */
  askedOverTcp: string[];
  /** Answers the `held.…` queries asked so far and those asked later. */
  release(): void;
  close(): Promise<void>;
}

/** Starts the fixture on a free loopback port (the same for UDP and TCP). */
export async function startTestUpstream(port = 0): Promise<TestUpstream> {
  const asked: string[] = [];
  const askedOverTcp: string[] = [];
  let released = false;
  const held: (() => void)[] = [];
  const answerOf = (query: DecodedPacket, limit: number): Buffer | null => {
    const question = query.questions?.[0];
    if (question === undefined) return null;
    const { rcode, answers, authorities } = recordsFor(question.name, question.type);
    const flags = ((query.flags ?? 0) & RECURSION_DESIRED) | RECURSION_AVAILABLE | rcode;
    const opt = (query.additionals ?? []).find((record) => record.type === 'OPT');
    const message = {
      type: 'response' as const,
      id: query.id ?? 0,
      questions: query.questions ?? [],
      additionals: opt === undefined ? [] : [{ ...opt, udpPayloadSize: 1232, options: [] }],
    };
    const whole = encode({ ...message, flags, answers, authorities });
    return whole.length <= limit ? whole : encode({ ...message, flags: flags | TRUNCATED_RESPONSE });
  };
  const answerWhenFree = (name: string, send: () => void) => {
    if (name.startsWith('held.') && !released) held.push(send);
    else send();
  };

  const udp = createSocket('udp4');
  udp.on('message', (message, sender) => {
    const query = decodeOrNull(message);
    const name = query?.questions?.[0]?.name;
    if (query === null || name === undefined) return;
    asked.push(name);
    const opt = (query.additionals ?? []).find((record) => record.type === 'OPT');
    const limit = opt === undefined ? 512 : Math.max(512, opt.udpPayloadSize);
    const answer = answerOf(query, limit);
    if (answer !== null) answerWhenFree(name, () => udp.send(answer, sender.port, sender.address));
  });
  udp.bind(port, '127.0.0.1');
  await once(udp, 'listening');

  const connections = new Set<Socket>();
  const tcp = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    const reader = new DnsFrameReader();
    socket.on('data', (chunk: Buffer) => {
      for (const message of reader.push(chunk)) {
        const query = decodeOrNull(message);
        const name = query?.questions?.[0]?.name;
        if (query === null || name === undefined) continue;
        asked.push(name);
        askedOverTcp.push(name);
        const answer = answerOf(query, 65_535);
        if (answer !== null) answerWhenFree(name, () => socket.writable && socket.write(framed(answer)));
      }
    });
  });
  tcp.listen(udp.address().port, '127.0.0.1');
  await once(tcp, 'listening');

  return {
    host: '127.0.0.1',
    port: udp.address().port,
    asked,
    askedOverTcp,
    release: () => {
      released = true;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

function recordsFor(name: string, type: string): { rcode: number; answers: Answer[]; authorities: Answer[] } {
  const soa: Answer = {
    type: 'SOA',
    name: name.split('.').slice(-1)[0] ?? '.',
    ttl: UPSTREAM_SOA_TTL,
    class: 'IN',
    data: {
      mname: 'ns.fixture.test',
      rname: 'hostmaster.fixture.test',
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86_400,
      minimum: UPSTREAM_SOA_MINIMUM,
    },
  };
  if (name.startsWith('missing.')) return { rcode: 3, answers: [], authorities: [soa] };
  const ttl = Number(/^ttl-(\d+)\./.exec(name)?.[1] ?? UPSTREAM_TTL);
  if (type === 'A' && name.startsWith('many.')) {
    const answers: Answer[] = Array.from({ length: MANY_ADDRESSES }, (_, index) => ({
      type: 'A',
      name,
      ttl,
      class: 'IN',
      data: `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`,
    }));
    return { rcode: 0, answers, authorities: [] };
  }
  if (type === 'A')
    return { rcode: 0, answers: [{ type: 'A', name, ttl, class: 'IN', data: UPSTREAM_V4 }], authorities: [] };
  if (type === 'AAAA')
    return {
      rcode: 0,
      answers: [{ type: 'AAAA', name, ttl, class: 'IN', data: UPSTREAM_V6 }],
      authorities: [],
    };
  return { rcode: 0, answers: [], authorities: [soa] };
}
