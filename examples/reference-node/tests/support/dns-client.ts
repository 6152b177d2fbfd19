import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { type DecodedPacket, decode, encode, RECURSION_DESIRED, type RecordType } from 'dns-packet';

/** A DNS query in wire format for `name` and `type`. */
export function queryMessage(name: string, type: RecordType, id = randomInt(0, 65_536)): Buffer {
  return encode({ type: 'query', id, flags: RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] });
}

/** The rcode of a decoded answer (the low four bits of its flags). */
export function rcodeOf(packet: DecodedPacket): number {
  return (packet.flags ?? 0) & 0xf;
}

/** The data of an answer's A, AAAA and CNAME records. */
export function answerData(packet: DecodedPacket): string[] {
  return (packet.answers ?? []).flatMap((answer) =>
    answer.type === 'A' || answer.type === 'AAAA' || answer.type === 'CNAME'
      ? [`${answer.type} ${answer.data}`]
      : [],
  );
}

/** Asks over UDP and decodes the answer; rejects after `timeoutMs`. */
export function udpQuery(
  address: { host: string; port: number },
  name: string,
  type: RecordType = 'A',
  timeoutMs = 3_000,
): Promise<DecodedPacket> {
  const message = queryMessage(name, type);
  const socket = createSocket('udp4');
  return new Promise<DecodedPacket>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no UDP answer for ${name} ${type}`));
    }, timeoutMs);
    socket.on('message', (answer) => {
      if (answer.readUInt16BE(0) !== message.readUInt16BE(0)) return;
      clearTimeout(timer);
      socket.close();
      resolve(decode(answer));
    });
    socket.send(message, address.port, address.host);
  });
}

/** Asks over DoH (RFC 8484): GET with `?dns=` base64url, or POST with an application/dns-message body. */
export async function dohQuery(
  url: string,
  name: string,
  type: RecordType = 'A',
  method: 'GET' | 'POST' = 'GET',
): Promise<DecodedPacket> {
  const message = queryMessage(name, type, 0);
  const response =
    method === 'GET'
      ? await fetch(`${url}?dns=${message.toString('base64url')}`, {
          headers: { accept: 'application/dns-message' },
        })
      : await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/dns-message', accept: 'application/dns-message' },
          body: new Uint8Array(message),
        });
  if (response.status !== 200) throw new Error(`DoH ${method} answered ${response.status}`);
  if (response.headers.get('content-type') !== 'application/dns-message')
    throw new Error(`DoH ${method} answered ${response.headers.get('content-type')}`);
  return decode(Buffer.from(await response.arrayBuffer()));
}
