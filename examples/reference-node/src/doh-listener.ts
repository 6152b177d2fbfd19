import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deviceOfDohPath } from '@svc/node-agent-kit';
import type { DnsResolver } from './dns-resolver.js';

const DNS_MESSAGE = 'application/dns-message';
/** Largest DNS message (RFC 8484 4.1 carries one message; its length field is 16 bits). */
const MAX_MESSAGE = 65_535;
const DOH_PATH = '/dns-query';

/**
 * DNS over HTTPS (RFC 8484) on `/dns-query`, and `/dns-query/<device>` for a device (issue 38): GET with the message base64url-encoded in `dns`, or POST with the
 * message as an `application/dns-message` body. Each answer says how long HTTP caches may keep it
 * (`Cache-Control: max-age`, its smallest TTL, RFC 8484 5.1). Served over plain HTTP on loopback: TLS is for the
 * proxy in front of it (see the README).
 */
export class DohListener {
  private constructor(private readonly server: Server) {}

  static async listen(resolver: DnsResolver, host: string, port: number): Promise<DohListener> {
    const server = createServer((request, response) => {
      handle(resolver, request, response).catch((error: Error) => {
        if (!response.headersSent) respond(response, 500, 'text/plain', Buffer.from(error.message));
      });
    });
    server.listen(port, host);
    await once(server, 'listening');
    return new DohListener(server);
  }

  /** The `http://host:port/dns-query` this listener answers on. */
  get url(): string {
    const address = this.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}${DOH_PATH}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

async function handle(
  resolver: DnsResolver,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://node');
  const device = deviceOfDohPath(url.pathname, DOH_PATH);
  if (url.pathname !== DOH_PATH && device === undefined)
    return respond(response, 404, 'text/plain', Buffer.from('not found'));
  let message: Buffer;
  if (request.method === 'GET') {
    const encoded = url.searchParams.get('dns');
    if (encoded === null || !/^[A-Za-z0-9_-]+$/.test(encoded))
      return respond(response, 400, 'text/plain', Buffer.from('dns must be base64url without padding'));
    message = Buffer.from(encoded, 'base64url');
  } else if (request.method === 'POST') {
    if (request.headers['content-type'] !== DNS_MESSAGE)
      return respond(response, 415, 'text/plain', Buffer.from(`the body must be ${DNS_MESSAGE}`));
    const body = await readBody(request);
    if (body === null) return respond(response, 413, 'text/plain', Buffer.from('message too large'));
    message = body;
  } else {
    response.setHeader('allow', 'GET, POST');
    return respond(response, 405, 'text/plain', Buffer.from('use GET or POST'));
  }
  const answer = await resolver.resolve(message, {
    transport: 'doh',
    clientIp: request.socket.remoteAddress ?? '',
    device,
    overUdp: false,
  });
  if (answer === null) return respond(response, 400, 'text/plain', Buffer.from('not a DNS query'));
  response.setHeader('cache-control', `max-age=${answer.cacheSeconds}`);
  respond(response, 200, DNS_MESSAGE, answer.wire);
}

function respond(response: ServerResponse, status: number, type: string, body: Buffer): void {
  response.writeHead(status, { 'content-type': type, 'content-length': body.length });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > MAX_MESSAGE) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
