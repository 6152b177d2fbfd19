import { createServer } from 'node:http';
import express from 'express';

/**
 * The two baselines of the benchmark, each in its own process: a bare express 5 app and a bare node:http
 * server, both answering GET /v1/meta with the same bytes the full stack sends.
 */
const [kind, body] = [process.argv[2], process.argv[3] ?? '{}'];
const headers = { 'content-type': 'application/json; charset=utf-8' };

if (kind === 'express') {
  const app = express();
  app.get('/v1/meta', (_req, res) => {
    res.set(headers).send(body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address !== null && typeof address === 'object')
      process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
} else {
  const server = createServer((_req, res) => {
    res.writeHead(200, headers).end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address !== null && typeof address === 'object')
      process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
}
