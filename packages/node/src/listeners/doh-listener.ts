import { once } from 'node:events';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { QueryResolver } from '../resolving/dns-resolver.js';
import { answerDohRequest, DOH_PATH } from './doh-request.js';
import type { TlsCertificate } from './stream-listener.js';

/** Time a client has to finish the TLS handshake, and an idle connection stays open. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;

/**
 * DNS over HTTPS (RFC 8484) on `/dns-query`, and `/dns-query/<device>` for a device (issue 38), over TLS with
 * HTTP/2 (RFC 8484 5.2 recommends it) and HTTP/1.1 (ALPN picks); each request is answered by `answerDohRequest`.
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
      (request, response) => void answerDohRequest(resolver, request, response),
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
