import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fault-injecting server does with one request. */
export type Fault =
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Drops the connection before any answer. */
  | { kind: 'reset' }
  /** Sends the status line and part of the body, then drops the connection. */
  | { kind: 'cut-body' }
  /** Never answers (until the server closes). */
  | { kind: 'hang' }
  /** Answers server-sent events, then drops the connection. */
  | { kind: 'events'; text: string };

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  lastEventId: string | undefined;
}

/** Both HTTP engines of the SDK: undici (Node's default) and fetch (browsers'). */
export const TRANSPORTS = ['undici', 'fetch'] as const;

export const OK: Fault = { kind: 'answer', status: 200, body: { ok: true } };
export const unavailable = (retryAfter = '0'): Fault => ({
  kind: 'answer',
  status: 503,
  headers: { 'retry-after': retryAfter },
  body: { type: 'about:blank', title: 'Unavailable', status: 503, code: 'relay_unavailable' },
});

/**
 * A real HTTP server on 127.0.0.1 playing `faults` in order, one per request, then answering 200: the retry
 * behaviour is observed from the requests it actually received.
 */
export class FaultServer {
  readonly seen: Seen[] = [];
  private faults: Fault[] = [];
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  constructor() {
    this.server = createServer((request, response) => this.handle(request, response));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  play(...faults: Fault[]): void {
    this.faults = faults;
    this.seen.length = 0;
  }

  release(): void {
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    request.on('end', () => {
      const key = request.headers['idempotency-key'];
      const lastEventId = request.headers['last-event-id'];
      this.seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        idempotencyKey: typeof key === 'string' ? key : undefined,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
      });
      const fault = this.faults.shift() ?? OK;
      if (fault.kind === 'reset') {
        request.socket.destroy();
      } else if (fault.kind === 'hang') {
        this.hanging.add(response);
      } else if (fault.kind === 'events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(fault.text, () => setImmediate(() => request.socket.destroy()));
      } else if (fault.kind === 'cut-body') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"ok":');
        setImmediate(() => request.socket.destroy());
      } else {
        const problem = fault.status >= 400;
        response.writeHead(fault.status, {
          'content-type': problem ? 'application/problem+json' : 'application/json',
          ...fault.headers,
        });
        response.end(JSON.stringify(fault.body ?? {}));
      }
    });
  }
}

/** Waits, polling every 5 ms for up to 10 s, until `condition` holds. */
export async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 2000 && !condition(); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never held');
}
