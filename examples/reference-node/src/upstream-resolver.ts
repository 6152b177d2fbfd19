import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';

/** Where allowed names are resolved: a recursive resolver reached over UDP. */
export interface UpstreamAddress {
  host: string;
  port: number;
}

/**
 * Forwards one DNS query over UDP and resolves with the upstream's answer, carrying the client's id again.
 * The query goes out under a fresh random id, from a socket of its own, so that a spoofed answer has to guess
 * both the id and the source port.
 */
export function forwardToUpstream(
  upstream: UpstreamAddress,
  query: Buffer,
  timeoutMs: number,
): Promise<Buffer> {
  const clientId = query.readUInt16BE(0);
  const upstreamId = randomInt(0, 65_536);
  const outgoing = Buffer.from(query);
  outgoing.writeUInt16BE(upstreamId, 0);
  const socket = createSocket(isIPv6(upstream.host) ? 'udp6' : 'udp4');
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`upstream ${upstream.host}:${upstream.port} did not answer`)),
      timeoutMs,
    );
    const finish = (outcome: Buffer | Error) => {
      clearTimeout(timer);
      socket.close();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('error', (error) => finish(error));
    socket.on('message', (message, sender) => {
      if (sender.port !== upstream.port || message.length < 12 || message.readUInt16BE(0) !== upstreamId)
        return;
      const answer = Buffer.from(message);
      answer.writeUInt16BE(clientId, 0);
      finish(answer);
    });
    socket.send(outgoing, upstream.port, upstream.host);
  });
}
