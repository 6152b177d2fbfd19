import { once } from 'node:events';
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { deviceOfDohPath } from '@svc/node-agent-kit';
import type { QueryResolver } from '../resolving/dns-resolver.js';
import type { TlsCertificate } from './stream-listener.js';

const DNS_MESSAGE = 'application/dns-message';
/** Largest DNS message (RFC 8484 4.1 carries one message; its length field is 16 bits). */
const MAX_MESSAGE = 65_535;
const DOH_PATH = '/dns-query';

/** Time a client has to finish the TLS handshake, and an idle connection stays open. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;

/**
 * DNS over HTTPS (RFC 8484) on `/dns-query`, and `/dns-query/<device>` for a device (issue 38), over TLS with
 * HTTP/2 (RFC 8484 5.2 recommends it) and HTTP/1.1 (ALPN picks): GET with the message base64url-encoded in `dns`, or POST with the message as an
 * `application/dns-message` body. Each answer says how long HTTP caches may keep it (`Cache-Control: max-age`,
 * its smallest TTL, RFC 8484 5.1).
 */
export class DohListener {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Http2SecureServer) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async listen(
    resolver: QueryResolver,
    host: string,
    port: number,
    tls: TlsCertificate,
  ): Promise<DohListener> {
    const server = createSecureServer(
      { cert: tls.certificate, key: tls.key, allowHTTP1: true, handshakeTimeout: HANDSHAKE_TIMEOUT_MS },
      (request, response) => {
        handle(resolver, request, response).catch((error: Error) => {
          if (!response.headersSent) respond(response, 500, 'text/plain', Buffer.from(error.message));
        });
      },
    );
    server.setTimeout(IDLE_TIMEOUT_MS);
    // A client that fails the handshake (plain HTTP on the TLS port, an unknown CA) only loses its connection.
    server.on('tlsClientError', (_error, socket) => socket.destroy());
    const listener = new DohListener(server);
    server.listen(port, host);
    await once(server, 'listening');
    return listener;
  }

  /** The `https://host:port/dns-query` this listener answers on. */
  get url(): string {
    const address = this.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `https://${host}:${address.port}${DOH_PATH}`;
  }

  /** Serves another certificate to new connections (a renewed one, read again on SIGHUP). */
  useCertificate(tls: TlsCertificate): void {
    this.server.setSecureContext({ cert: tls.certificate, key: tls.key });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

async function handle(
  resolver: QueryResolver,
  request: Http2ServerRequest,
  response: Http2ServerResponse,
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

function respond(response: Http2ServerResponse, status: number, type: string, body: Buffer): void {
  response.writeHead(status, { 'content-type': type, 'content-length': body.length });
  response.end(body);
}

async function readBody(request: Http2ServerRequest): Promise<Buffer | null> {
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
