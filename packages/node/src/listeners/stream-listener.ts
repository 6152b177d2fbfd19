import { once } from 'node:events';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, Server as TlsServer } from 'node:tls';
import { deviceOfServerName } from '@svc/node-agent-kit';
import { DnsFrameReader, framed } from '../dns/dns-stream-frames.js';
import type { QueryOrigin, QueryResolver } from '../resolving/dns-resolver.js';

/** Limits of a DNS stream listener; each has a default. */
export interface StreamLimits {
  /** A connection with no query in flight is closed after this much silence (RFC 7766 6.2.3). */
  idleTimeoutMs?: number;
  /** Queries of one connection answered at once; reading pauses above it (RFC 7766 6.2.1.1). */
  maxInFlight?: number;
  /** Connections open at once; more are refused. */
  maxConnections?: number;
}

/** The certificate chain and private key (PEM) DoT serves. */
export interface TlsCertificate {
  certificate: string | Buffer;
  key: string | Buffer;
}

const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_IN_FLIGHT = 100;
const DEFAULT_MAX_CONNECTIONS = 1_000;
/** Time a client has to finish the TLS handshake. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * DNS over a stream: TCP (RFC 7766) or TLS (DoT, RFC 7858). Each message is preceded by its length; queries
 * on one connection are answered concurrently and each answer is written as soon as it is ready, so a slow one
 * does not hold back the others (pipelining, answers possibly out of order, matched by id).
 */
export class StreamListener {
  private readonly connections = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  /** Plain DNS over TCP on one address; `port` 0 picks a free one. */
  static tcp(resolver: QueryResolver, host: string, port: number, limits: StreamLimits = {}) {
    return StreamListener.listen(
      (onConnection) => createTcpServer({ allowHalfOpen: true }, onConnection),
      resolver,
      'do53',
      host,
      port,
      limits,
    );
  }

  /** DNS over TLS with the given certificate; `port` 0 picks a free one. */
  static tls(
    resolver: QueryResolver,
    host: string,
    port: number,
    tls: TlsCertificate,
    limits: StreamLimits = {},
  ) {
    return StreamListener.listen(
      (onConnection) => {
        const server = createTlsServer(
          {
            cert: tls.certificate,
            key: tls.key,
            handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
            allowHalfOpen: true,
          },
          onConnection,
        );
        // A client that fails the handshake (plain DNS on the TLS port, a bad hello) only loses its connection.
        server.on('tlsClientError', (_error, socket) => socket.destroy());
        return server;
      },
      resolver,
      'dot',
      host,
      port,
      limits,
    );
  }

  private static async listen(
    create: (onConnection: (socket: Socket) => void) => Server,
    resolver: QueryResolver,
    transport: QueryOrigin['transport'],
    host: string,
    port: number,
    limits: StreamLimits,
  ): Promise<StreamListener> {
    let listener: StreamListener | undefined;
    const server = create((socket) => {
      if (listener === undefined) return socket.destroy();
      listener.connections.add(socket);
      socket.once('close', () => listener?.connections.delete(socket));
      serveConnection(socket, resolver, transport, limits);
    });
    server.maxConnections = limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    listener = new StreamListener(server);
    server.listen(port, host);
    await once(server, 'listening');
    return listener;
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    const address = this.server.address() as AddressInfo;
    return { host: address.address, port: address.port };
  }

  /** Serves another certificate to new DoT connections (a renewed one, read again on SIGHUP). */
  useCertificate(tls: TlsCertificate): void {
    if (this.server instanceof TlsServer)
      this.server.setSecureContext({ cert: tls.certificate, key: tls.key });
  }

  /** Stops accepting, and closes the open connections (their queries in flight get no answer). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.connections) socket.destroy();
    await closed;
  }
}

function serveConnection(
  socket: Socket,
  resolver: QueryResolver,
  transport: QueryOrigin['transport'],
  limits: StreamLimits,
): void {
  const reader = new DnsFrameReader();
  const maxInFlight = limits.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  // Over TLS, the server name the client asked for may name a device (`<device>-<profile id>.…`).
  const serverName = (socket as Socket & { servername?: string | false }).servername;
  const origin: QueryOrigin = {
    transport,
    clientIp: socket.remoteAddress ?? '',
    device: deviceOfServerName(typeof serverName === 'string' ? serverName : undefined),
    overUdp: false,
  };
  let inFlight = 0;
  // A client may close its side once it has sent its queries: their answers still go out, then the connection
  // closes (half-open until then).
  let clientDone = false;
  const endWhenAnswered = () => {
    if (clientDone && inFlight === 0) socket.end();
  };
  socket.on('end', () => {
    clientDone = true;
    endWhenAnswered();
  });
  socket.setNoDelay(true);
  socket.setTimeout(limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => {
    if (inFlight === 0) socket.destroy();
  });
  // A reset or a broken pipe ends this connection only.
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    for (const message of reader.push(chunk)) {
      inFlight += 1;
      if (inFlight >= maxInFlight) socket.pause();
      resolver
        .resolve(message, origin)
        .then(
          (answer) => {
            if (answer !== null && socket.writable) socket.write(framed(answer.wire));
          },
          // A query that fails inside the resolver gets no answer; the others on the connection still do.
          () => undefined,
        )
        .finally(() => {
          inFlight -= 1;
          if (socket.isPaused() && inFlight < maxInFlight) socket.resume();
          endWhenAnswered();
        });
    }
  });
}
