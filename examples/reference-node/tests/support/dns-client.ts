import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import {
  type DecodedPacket,
  decode,
  encode,
  type OptAnswer,
  RECURSION_DESIRED,
  type RecordType,
} from 'dns-packet';

/** A DNS query in wire format for `name` and `type`; with `edns`, an OPT record of that version and size. */
export function queryMessage(
  name: string,
  type: RecordType,
  id = randomInt(0, 65_536),
  edns?: { version?: number; udpPayloadSize?: number },
): Buffer {
  return encode({
    type: 'query',
    id,
    flags: RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
    additionals:
      edns === undefined
        ? []
        : [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: edns.udpPayloadSize ?? 1232,
              extendedRcode: 0,
              ednsVersion: edns.version ?? 0,
              flags: 0,
              flag_do: false,
              options: [],
            },
          ],
  });
}

/** The OPT record of a decoded message, if it has one. */
export function optOf(packet: DecodedPacket): OptAnswer | undefined {
  return (packet.additionals ?? []).find((record): record is OptAnswer => record.type === 'OPT');
}

/** The Extended DNS Error (RFC 8914) of a decoded message's OPT record: info code and extra text. */
export function edeOf(packet: DecodedPacket): { code: number; text: string } | null {
  for (const option of optOf(packet)?.options ?? []) {
    const code: number = option.code;
    if (code === 15 && option.data !== undefined && option.data.length >= 2)
      return { code: option.data.readUInt16BE(0), text: option.data.subarray(2).toString('utf8') };
  }
  return null;
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
  return udpExchange(address, queryMessage(name, type), timeoutMs);
}

/** Sends one message over UDP and decodes the answer with its id; rejects after `timeoutMs`. */
export function udpExchange(
  address: { host: string; port: number },
  message: Buffer,
  timeoutMs = 3_000,
): Promise<DecodedPacket> {
  const name = decode(message).questions?.[0]?.name ?? '';
  const socket = createSocket('udp4');
  return new Promise<DecodedPacket>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no UDP answer for ${name}`));
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

/** Asks over DoH GET and returns the decoded answer with the response's `Cache-Control` header. */
export async function dohWithHeaders(
  url: string,
  name: string,
  type: RecordType = 'A',
): Promise<{ cacheControl: string | null; packet: DecodedPacket }> {
  const message = queryMessage(name, type, 0);
  const response = await fetch(`${url}?dns=${message.toString('base64url')}`, {
    headers: { accept: 'application/dns-message' },
  });
  if (response.status !== 200) throw new Error(`DoH GET answered ${response.status}`);
  return {
    cacheControl: response.headers.get('cache-control'),
    packet: decode(Buffer.from(await response.arrayBuffer())),
  };
}
