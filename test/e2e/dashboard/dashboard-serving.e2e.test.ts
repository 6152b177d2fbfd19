import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, outboxMailTo } from '../../support/api-harness.js';
import { exitOf, listeningUrl, spawnSvc, svcBuilt } from '../../support/cli-process.js';
import {
  type DashboardServer,
  localhostUrl,
  newEmail,
  startDashboardServer,
} from '../../support/dashboard-browser.js';
import { send } from '../../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/** The dashboard as `svc serve` answers it over HTTP: what a browser gets before any script runs. */
describe('svc serve serves the dashboard on its own origin', () => {
  let server: DashboardServer;

  beforeAll(async () => {
    server = await startDashboardServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the app page at / and at the app routes, uncached, under a policy that forbids inline script', async () => {
    for (const path of [
      '/',
      '/login',
      '/verify-email?token=ver_x',
      '/reset-password',
      '/account/security',
      '/profiles/x/logs',
    ]) {
      const answer = await send(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      const csp = answer.headers['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      // Every script is a file of the origin: nothing inline for the policy to block.
      expect(answer.text).toMatch(/<script type="module" crossorigin src="\/assets\/[^"]+\.js"><\/script>/);
      expect(answer.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('answers hashed assets compressed and cacheable for a year, and revalidates the page by ETag', async () => {
    const page = await send(`${server.url}/`);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1] ?? '';
    const asset = await send(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.vary).toContain('Accept-Encoding');
    const plain = await send(`${server.url}${script}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('createRoot');
    const again = await send(`${server.url}/login`, {
      headers: { 'if-none-match': page.headers.etag ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('leaves the API, its reference and its probes alone, and a missing file is the API 404', async () => {
    const unknown = await send(`${server.url}/v1/no-such-thing`, { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect((await send(`${server.url}/docs`)).text).toContain('<h1');
    expect((await send(`${server.url}/livez`)).status).toBe(200);
    const missing = await send(`${server.url}/assets/index-missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect((await send(`${server.url}/favicon.ico`)).status).toBe(404);
    // The app is only ever read: a write to one of its paths is no API route either.
    expect((await send(`${server.url}/login`, { method: 'POST', body: {} })).status).toBe(404);
  });

  it('links emails to its own origin under localhost, so that the emailed links open this dashboard with passkeys', async () => {
    const email = newEmail();
    await server.client().auth.signup({ email, password: 'correct horse battery staple' });
    const link = await server.linkFromEmail(email, /\/verify-email\?token=ver_/);
    // Under localhost, not 127.0.0.1: WebAuthn refuses an IP address, so passkeys work only there.
    expect(link.startsWith(`${localhostUrl(server)}/verify-email?token=ver_`)).toBe(true);
  });

  it('accepts the dashboard origin under both loopback names (127.0.0.1 and localhost) for session writes', async () => {
    const localhost = server.url.replace('127.0.0.1', 'localhost');
    for (const origin of [server.url, localhost]) {
      const answer = await send(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { origin },
        body: { email: newEmail(), password: 'wrong password of some length' },
      });
      expect(answer.status, origin).toBe(401);
    }
    const foreign = await send(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body: { email: newEmail(), password: 'wrong password of some length' },
    });
    expect(foreign.status).toBe(403);
    expect((foreign.json as { code: string }).code).toBe('csrf_rejected');
  });
});

// Starts a server of its own within the test: generous, so that a slow moment of a shared machine is no failure.
describe('svc serve with SVC_DASHBOARD_URL set (a dashboard hosted elsewhere)', { timeout: 90_000 }, () => {
  it('does not serve the app, and emailed links point at the configured dashboard', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-dash-off-'));
    const child = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], {
      SVC_ENV: 'development',
      SVC_DASHBOARD_URL: 'https://app.example.test',
    });
    try {
      const url = await listeningUrl(child);
      const root = await send(`${url}/`, { headers: { accept: 'text/html' } });
      expect(root.status).toBe(404);
      expect(root.headers['content-type']).toContain('application/problem+json');
      const email = newEmail();
      await send(`${url}/v1/auth/signup`, {
        method: 'POST',
        body: { email, password: 'correct horse battery staple' },
      });
      const mails = await eventually(
        async () => outboxMailTo(dataDir, email),
        (found) => found.length > 0,
        15_000,
      );
      expect(mails[0]).toContain('https://app.example.test/verify-email?token=ver_');
      // Its CORS answers name the configured dashboard origin, with credentials.
      const preflight = await send(`${url}/v1/profiles`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.test', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.test');
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the dashboard build', () => {
  const dist = new URL('../../../packages/dashboard/dist/', import.meta.url).pathname;

  it('has no inline script in its page, and no Node-only module in its scripts (the SDK browser build)', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const scripts = readdirSync(join(dist, 'assets')).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(1);
    for (const name of scripts) {
      const code = readFileSync(join(dist, 'assets', name), 'utf8');
      expect(code, name).not.toMatch(/from\s*["'](undici|node:[a-z_]+)["']|import\(\s*["'](undici|node:)/);
    }
  });
});
