import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect, isIPv6, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { DecodedPacket } from 'dns-packet';
import { decodeOrNull } from '../dns/dns-message.js';
import { DnsFrameReader, framed } from '../dns/dns-stream-frames.js';

/**
 * A recursive resolver the node forwards to: over UDP (and TCP again when an answer is truncated), TCP only, or
 * DNS over TLS (RFC 7858), whose certificate is checked against `tlsName` (and `ca` when given, else the
 * system's store).
 */
export interface UpstreamServer {
  host: string;
  port: number;
  transport: 'udp' | 'tcp' | 'tls';
  /** The name the DoT server's certificate must carry (default: `host`). */
  tlsName?: string;
  /** PEM certificates to trust for DoT instead of the system's (a private resolver). */
  ca?: string | Buffer;
}

/** The upstream's answer: its bytes and the message they decode to. */
export interface UpstreamAnswer {
  wire: Buffer;
  message: DecodedPacket;
}

/**
 * Sends one DNS query to one upstream server before `deadline` (Unix ms) and resolves with its answer. The query
 * goes out under a fresh random id (from a socket of its own over UDP), and an answer counts only when it comes
 * from the server's port with that id and the same question, name and type (RFC 5452 9.1), so that a spoofed one
 * has to guess them all. A truncated UDP answer is asked again over TCP; an answer that does not decode fails.
 */
export async function exchangeWithUpstream(
  server: UpstreamServer,
  query: Buffer,
  deadline: number,
): Promise<UpstreamAnswer> {
  const outgoing = Buffer.from(query);
  const question = decodeOrNull(query)?.questions?.[0];
  const matches = (answer: Buffer): DecodedPacket | null => {
    if (answer.length < 12 || answer.readUInt16BE(0) !== outgoing.readUInt16BE(0)) return null;
    const message = decodeOrNull(answer);
    if (message === null || message.type !== 'response') return null;
    if (question !== undefined && !sameQuestion(question, message.questions?.[0])) return null;
    return message;
  };
  outgoing.writeUInt16BE(randomInt(0, 65_536), 0);
  if (server.transport === 'tls')
    return overStream(server, () => tlsSocket(server), outgoing, deadline, matches);
  if (server.transport === 'tcp')
    return overStream(server, () => tcpSocket(server), outgoing, deadline, matches);
  const answer = await overUdp(server, outgoing, deadline, matches);
  if (!answer.message.flag_tc) return answer;
  outgoing.writeUInt16BE(randomInt(0, 65_536), 0);
  return overStream(server, () => tcpSocket(server), outgoing, deadline, matches);
}

function tcpSocket(server: UpstreamServer): Socket {
  return connect({ host: server.host, port: server.port });
}

function tlsSocket(server: UpstreamServer): Socket {
  return connectTls({
    host: server.host,
    port: server.port,
    servername: server.tlsName ?? server.host,
    ...(server.ca === undefined ? {} : { ca: server.ca }),
    // Certificates are always checked: an unauthenticated DoT upstream is no better than UDP.
    rejectUnauthorized: true,
  });
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
  upstream: UpstreamServer,
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

function overStream(
  upstream: UpstreamServer,
  open: () => Socket,
  query: Buffer,
  deadline: number,
  matches: Matcher,
): Promise<UpstreamAnswer> {
  const socket = open();
  const reader = new DnsFrameReader();
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `upstream ${upstream.host}:${upstream.port} did not answer over ${upstream.transport === 'tls' ? 'TLS' : 'TCP'}`,
          ),
        ),
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
    socket.on('close', () =>
      finish(new Error(`upstream ${upstream.host}:${upstream.port} closed the connection`)),
    );
    socket.on('data', (chunk) => {
      for (const message of reader.push(chunk)) {
        const decoded = matches(message);
        if (decoded !== null) return finish({ wire: Buffer.from(message), message: decoded });
      }
    });
    socket.write(framed(query));
  });
}
