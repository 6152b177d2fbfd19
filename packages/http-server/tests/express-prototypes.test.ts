import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressPrototypes } from '@svc/http-server';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

/** Serves `app` on a server built with `prototypes`' classes; `seen` gets each request before express does. */
async function serve(
  app: express.Express,
  prototypes: ReturnType<typeof expressPrototypes>,
  seen: (req: IncomingMessage) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer({
    IncomingMessage: prototypes.IncomingMessage,
    ServerResponse: prototypes.ServerResponse,
  });
  server.on('request', seen);
  server.on('request', app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The API server's request and response classes (start-server.ts): express 5 gives each request its
 * application's prototypes; built with them already, no live object has its prototype changed.
 */
describe('express prototypes', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  for (const adopted of [true, false]) {
    const name = adopted
      ? 'constructs requests with the application’s prototypes once they are adopted'
      : 'leaves the prototypes to express when they are not adopted';
    it(name, async () => {
      const app = express();
      app.set('trust proxy', 'loopback');
      app.post('/echo', express.json(), (req, res) => {
        res.status(201).json({ ip: req.ip, json: req.is('json'), body: req.body, app: req.app === app });
      });
      const prototypes = expressPrototypes();
      if (adopted) prototypes.adopt(app);
      const before: boolean[] = [];
      const served = await serve(app, prototypes, (req) =>
        before.push(Object.getPrototypeOf(req) === app.request),
      );
      server = served.server;
      const answer = await fetch(`${served.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ a: 1 }),
      });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ ip: '203.0.113.7', json: 'json', body: { a: 1 }, app: true });
      expect(before).toEqual([adopted]);
    });
  }
});
