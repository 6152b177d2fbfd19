/**
 * Serves the passkey sign-in example page on http://localhost:3000 (the default dashboard origin of a
 * development svc, so the passkey's relying party is `localhost` and its origin this page's). The page calls
 * the API directly, with the session cookie, as a dashboard does.
 *
 *   PORT=3000 SVC_API_URL=http://localhost:8080 node --import tsx examples/passkey-sign-in/server.ts
 */
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';

const port = Number(process.env.PORT ?? 3000);
const api = new URL(process.env.SVC_API_URL ?? 'http://localhost:8080').origin;
const publicDir = new URL('./public/', import.meta.url);

/** The files of the page, by request path: nothing else is served, so no path can reach outside. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/webauthn-json.js': { file: 'webauthn-json.js', type: 'text/javascript; charset=utf-8' },
};

function securityHeaders(res: ServerResponse): void {
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src ${api}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

const server = createServer((req, res) => {
  securityHeaders(res);
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === '/config.js') {
    // Where the API is, for the page's script; JSON.stringify keeps it a plain string literal.
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`export const API = ${JSON.stringify(api)};\n`);
    return;
  }
  const entry = FILES[path];
  if (req.method !== 'GET' || entry === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
    return;
  }
  readFile(new URL(entry.file, publicDir)).then(
    (body) => {
      res.writeHead(200, { 'Content-Type': entry.type, 'Cache-Control': 'no-store' });
      res.end(body);
    },
    (error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`cannot read ${entry.file}: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  );
});

server.listen(port, 'localhost', () => {
  process.stdout.write(`passkey sign-in example on http://localhost:${port} (API ${api})\n`);
});
