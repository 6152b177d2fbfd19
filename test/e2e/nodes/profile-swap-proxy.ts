import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

/**
 * A man in the middle between a node and the API: forwards every request and the link's upgrade as they are,
 * but answers GET /v1/nodes/self/profile with the document it was told to serve, as an attacker who cannot
 * sign would replay a correctly signed one (another profile's, or an older version).
 */
export interface ProfileSwapProxy {
  url: string;
  /** Serves this document for the profile endpoint; undefined forwards it again. */
  swap(document: unknown): void;
  /**
   * Holds the next profile requests until the returned function is called; `requested` resolves when the
   * first held request arrives.
   */
  holdProfile(): { requested: Promise<void>; release(): void };
  /** How many link upgrades the proxy has passed on. */
  readonly upgrades: number;
  close(): Promise<void>;
}

export async function startProfileSwapProxy(apiUrl: string): Promise<ProfileSwapProxy> {
  const target = new URL(apiUrl);
  let swapped: unknown;
  let held: { arrived(): void; released: Promise<void> } | undefined;
  let upgrades = 0;
  const upgraded = new Set<{ destroy(): void }>();
  const server = createServer(async (req, res) => {
    if (held !== undefined && req.method === 'GET' && req.url === '/v1/nodes/self/profile') {
      held.arrived();
      await held.released;
    }
    if (swapped !== undefined && req.method === 'GET' && req.url === '/v1/nodes/self/profile') {
      const body = JSON.stringify(swapped);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  server.on('upgrade', (req, socket, head) => {
    upgrades += 1;
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let index = 0; index < req.rawHeaders.length; index += 2)
        lines.push(`${req.rawHeaders[index]}: ${req.rawHeaders[index + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    swap: (document) => {
      swapped = document;
    },
    holdProfile: () => {
      let arrived = (): void => undefined;
      let release = (): void => undefined;
      const requested = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      held = { arrived, released };
      return { requested, release };
    },
    get upgrades() {
      return upgrades;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
