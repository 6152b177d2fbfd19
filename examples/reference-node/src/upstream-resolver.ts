import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';
import { DnsFrameReader, decodeOrNull, framed } from '@svc/node/dns-wire';
import type { DecodedPacket } from 'dns-packet';

/** Where allowed names are resolved: a recursive resolver reached over UDP, and over TCP for long answers. */
export interface UpstreamAddress {
  host: string;
  port: number;
}

/** The upstream's answer: its bytes (carrying the client's id again) and the message they decode to. */
export interface UpstreamAnswer {
  wire: Buffer;
  message: DecodedPacket;
}

/** Options of {@link askUpstream}. */
export interface UpstreamQueryOptions {
  /** Time the whole exchange may take, UDP and TCP together. */
  timeoutMs: number;
  /** Asks again over TCP when the UDP answer is truncated (TC), for clients that take long answers. */
  tcpWhenTruncated: boolean;
}

/**
 * Sends one DNS query to the upstream and resolves with its answer, carrying the client's id again. The query
 * goes out under a fresh random id from a socket of its own, and an answer counts only when it comes from the
 * upstream's port with that id and the same question (RFC 5452 9.1), so that a spoofed one has to guess them
 * all. An answer that does not decode fails the query.
 */
export async function askUpstream(
  upstream: UpstreamAddress,
  query: Buffer,
  options: UpstreamQueryOptions,
): Promise<UpstreamAnswer> {
  const deadline = Date.now() + options.timeoutMs;
  const clientId = query.readUInt16BE(0);
  const outgoing = Buffer.from(query);
  const sent = decodeOrNull(query);
  const question = sent?.questions?.[0];
  const matches = (answer: Buffer): DecodedPacket | null => {
    if (answer.length < 12 || answer.readUInt16BE(0) !== outgoing.readUInt16BE(0)) return null;
    const message = decodeOrNull(answer);
    const answered = message?.questions?.[0];
    if (message === null || message.type !== 'response') return null;
    if (question !== undefined && !sameQuestion(question, answered)) return null;
    return message;
  };
  outgoing.writeUInt16BE(randomInt(0, 65_536), 0);
  let answer = await overUdp(upstream, outgoing, deadline, matches);
  if (options.tcpWhenTruncated && answer.message.flag_tc) {
    outgoing.writeUInt16BE(randomInt(0, 65_536), 0);
    answer = await overTcp(upstream, outgoing, deadline, matches);
  }
  answer.wire.writeUInt16BE(clientId, 0);
  answer.message.id = clientId;
  return answer;
}

type Matcher = (answer: Buffer) => DecodedPacket | null;

function sameQuestion(
  asked: { name: string; type: string },
  answered: { name: string; type: string } | undefined,
): boolean {
  return (
    answered !== undefined &&
    answered.type === asked.type &&
    answered.name.toLowerCase() === asked.name.toLowerCase()
  );
}

function overUdp(
  upstream: UpstreamAddress,
  query: Buffer,
  deadline: number,
  matches: Matcher,
): Promise<UpstreamAnswer> {
  const socket = createSocket(isIPv6(upstream.host) ? 'udp6' : 'udp4');
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`upstream ${upstream.host}:${upstream.port} did not answer`)),
      Math.max(0, deadline - Date.now()),
    );
    let done = false;
    const finish = (outcome: UpstreamAnswer | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('error', (error) => finish(error));
    socket.on('message', (message, sender) => {
      if (sender.port !== upstream.port) return;
      const decoded = matches(message);
      if (decoded !== null) finish({ wire: Buffer.from(message), message: decoded });
    });
    socket.send(query, upstream.port, upstream.host);
  });
}

function overTcp(
  upstream: UpstreamAddress,
  query: Buffer,
  deadline: number,
  matches: Matcher,
): Promise<UpstreamAnswer> {
  const socket = connect({ host: upstream.host, port: upstream.port });
  const reader = new DnsFrameReader();
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`upstream ${upstream.host}:${upstream.port} did not answer over TCP`)),
      Math.max(0, deadline - Date.now()),
    );
    let done = false;
    const finish = (outcome: UpstreamAnswer | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish(new Error(`upstream ${upstream.host}:${upstream.port} closed over TCP`)));
    socket.on('data', (chunk) => {
      for (const message of reader.push(chunk)) {
        const decoded = matches(message);
        if (decoded !== null) return finish({ wire: Buffer.from(message), message: decoded });
      }
    });
    socket.write(framed(query));
  });
}
