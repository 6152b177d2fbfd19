import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedWebhook {
  /** The request's path: each test registers its own, so it reads only what was sent to it. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body's `type`. */
  type: string;
}

/** What the receiver answers to one request: a status, and where a redirect leads. */
export interface ReceiverAnswer {
  status: number;
  location?: string;
}

/**
 * A real HTTP endpoint on 127.0.0.1 that records what it is sent, answering from a script of answers (then 204):
 * what an integrator's receiver does, failing, redirecting or answering as a test tells it.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, ReceiverAnswer[]>();
  private readonly always = new Map<string, ReceiverAnswer>();
  private server: Server | undefined;
  url = '';

  async start(host = '127.0.0.1'): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let type = '';
        try {
          type = String((JSON.parse(body) as { type?: unknown }).type ?? '');
        } catch {
          type = '';
        }
        const path = request.url ?? '/';
        this.received.push({ path, headers: request.headers, body, type });
        const answer = this.scripts.get(path)?.shift() ?? this.always.get(path) ?? { status: 204 };
        response.writeHead(answer.status, answer.location === undefined ? {} : { location: answer.location });
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next requests to `path` are answered so, in turn. */
  answerNext(path: string, ...answers: ReceiverAnswer[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  /** Every request to `path` is answered so until told otherwise (undefined: 204 again). */
  answerAlways(path: string, answer: ReceiverAnswer | undefined): void {
    if (answer === undefined) this.always.delete(path);
    else this.always.set(path, answer);
  }

  /** What was sent to `path`, oldest first. */
  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
