import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * The policy of the dashboard's page: scripts, styles and fonts from the origin only (no inline script or
 * style element, no eval), API calls and WebAuthn to the same origin, images from the origin or `data:` (QR
 * codes), never framed.
 */
const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths the dashboard never answers, even with a GET for a page: they belong to the API and its operators. */
const RESERVED = /^\/(v1|docs|livez|readyz|metrics|healthz|problems)(\/|$)/i;

/** Hashed build output: its name changes with its content, so browsers may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** One file of the build, with its precompressed forms. */
interface Asset {
  body: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  type: string;
  etag: string;
  cacheControl: string;
}

/** Serves the built dashboard (express middleware placed after the API's routes). */
export type DashboardSite = (req: Request, res: Response, next: NextFunction) => void;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function optional(path: string): Promise<Buffer | undefined> {
  return existsSync(path) ? readFile(path) : undefined;
}

/** Reads the build into memory: a few hundred kilobytes, answered without touching the disk again. */
async function loadAssets(dir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const file of await filesUnder(dir)) {
    const extension = extname(file);
    const type = TYPES[extension];
    if (type === undefined) continue;
    const path = `/${relative(dir, file).split(sep).join('/')}`;
    const body = await readFile(file);
    assets.set(path, {
      body,
      br: await optional(`${file}.br`),
      gzip: await optional(`${file}.gz`),
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      cacheControl: path.startsWith('/assets/')
        ? IMMUTABLE
        : path === '/index.html'
          ? 'no-cache'
          : 'public, max-age=3600',
    });
  }
  return assets;
}

/** The page answered in place of the app when the build is missing, so that the cause is plain to see. */
function notBuiltPage(): Asset {
  const body = Buffer.from(
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>svc</title>' +
      '<h1>The dashboard is not built</h1><p>Build it with <code>npm run build:dashboard</code> (npm ci and ' +
      'npm start do it by themselves), then reload. The API answers under <a href="/docs">/v1</a>.</p></html>',
  );
  return {
    body,
    br: undefined,
    gzip: undefined,
    type: TYPES['.html'] ?? 'text/html',
    etag: '"not-built"',
    cacheControl: 'no-cache',
  };
}

function send(req: Request, res: Response, asset: Asset, status = 200): void {
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', asset.cacheControl);
  res.setHeader('ETag', asset.etag);
  res.vary('Accept-Encoding');
  if (req.headers['if-none-match'] === asset.etag) {
    res.status(304).end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  let body = asset.body;
  if (asset.br !== undefined && /\bbr\b/.test(accepted)) {
    body = asset.br;
    res.setHeader('Content-Encoding', 'br');
  } else if (asset.gzip !== undefined && /\bgzip\b/.test(accepted)) {
    body = asset.gzip;
    res.setHeader('Content-Encoding', 'gzip');
  }
  res.setHeader('Content-Length', body.length);
  res.status(status);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/**
 * The dashboard as `svc serve` answers it on the API's own origin: the build's files (hashed ones cached for
 * a year), and `index.html` (never cached without asking) for every other GET of a page path, so that the
 * app's own routes and the emailed links (/verify-email, /reset-password, /login, /account/security) open
 * it. The API's paths and anything that looks like a missing file stay the API's 404.
 */
export async function dashboardSite(dir: string): Promise<DashboardSite> {
  const assets = existsSync(join(dir, 'index.html')) ? await loadAssets(dir) : new Map<string, Asset>();
  const page = assets.get('/index.html') ?? notBuiltPage();
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) return next();
    const isPage = req.path === '/index.html';
    const asset = isPage ? undefined : assets.get(req.path);
    if (asset !== undefined) return send(req, res, asset);
    // A missing file (a stale hashed asset after an upgrade, a mistyped favicon) is the API's 404, not the app.
    if (!isPage && (req.path.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(req.path))) return next();
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    send(req, res, page, page === assets.get('/index.html') ? 200 : 503);
  };
}
