import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** How one path of the list source server answers. */
export interface ListSourceRoute {
  /** The body (a fixture list); absent for status-only answers. */
  body?: string | Buffer;
  /** Default 200. */
  status?: number;
  etag?: string;
  lastModified?: string;
  /** Sent gzip-compressed with Content-Encoding: gzip. */
  gzip?: boolean;
  /** Headers sent at once, the body after this delay (a slow source). */
  bodyDelayMs?: number;
  /** Streams this many bytes of list lines without a Content-Length (a source larger than any cap). */
  streamBytes?: number;
  /** Redirects (302) to this path. */
  redirectTo?: string;
  headers?: Record<string, string>;
}

/**
 * A local HTTP server standing in for list hosts (tests never reach the internet): each path answers as its
 * route says, honours If-None-Match / If-Modified-Since with a 304, and records every request.
 */
export class ListSourceServer {
  private readonly routes = new Map<string, ListSourceRoute>();
  readonly requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ListSourceServer> {
    let instance: ListSourceServer | undefined;
    const server = createServer((request, response) =>
      instance?.answer(request.url ?? '/', request.headers, response),
    );
    instance = new ListSourceServer(server);
    server.on('connection', (socket) => {
      instance?.sockets.add(socket);
      socket.on('close', () => instance?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Sets how `path` answers (replacing an earlier route). */
  route(path: string, route: ListSourceRoute): void {
    this.routes.set(path, route);
  }

  /** Requests made to `path`. */
  hits(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(path: string, headers: IncomingHttpHeaders, response: ServerResponse): void {
    this.requests.push({ path, headers });
    const route = this.routes.get(path);
    if (route === undefined) {
      response.writeHead(404).end('no such list');
      return;
    }
    if (route.redirectTo !== undefined) {
      response.writeHead(302, { location: route.redirectTo }).end();
      return;
    }
    const fresh =
      (route.etag !== undefined && headers['if-none-match'] === route.etag) ||
      (route.lastModified !== undefined && headers['if-modified-since'] === route.lastModified);
    const validators = {
      ...(route.etag === undefined ? {} : { etag: route.etag }),
      ...(route.lastModified === undefined ? {} : { 'last-modified': route.lastModified }),
    };
    if (fresh && (route.status ?? 200) === 200) {
      response.writeHead(304, validators).end();
      return;
    }
    if (route.streamBytes !== undefined) {
      response.writeHead(route.status ?? 200, { 'content-type': 'text/plain', ...validators });
      const line = '0.0.0.0 streamed-without-end.example\n';
      let sent = 0;
      const push = () => {
        while (sent < (route.streamBytes ?? 0)) {
          sent += line.length;
          if (!response.write(line)) {
            response.once('drain', push);
            return;
          }
        }
        response.end();
      };
      push();
      return;
    }
    const raw = route.body === undefined ? Buffer.alloc(0) : Buffer.from(route.body);
    const body = route.gzip === true ? gzipSync(raw) : raw;
    response.writeHead(route.status ?? 200, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.length),
      ...(route.gzip === true ? { 'content-encoding': 'gzip' } : {}),
      ...validators,
      ...route.headers,
    });
    if (route.bodyDelayMs === undefined) response.end(body);
    else {
      response.flushHeaders();
      setTimeout(() => {
        if (!response.destroyed) response.end(body);
      }, route.bodyDelayMs).unref();
    }
  }
}
