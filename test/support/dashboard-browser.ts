import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SvcClient } from '@svc/sdk';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { eventually, outboxMailTo } from './api-harness.js';
import { exitOf, listeningUrl, spawnSvc, svcBuilt } from './cli-process.js';
import { seedColumnarStore } from './columnar-template.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Debian's Chromium, which `.ci/run` installs when missing; Playwright drives it over CDP. */
export const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserSkipReason: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set SVC_TEST_CHROMIUM)`;
if (browserSkipReason !== undefined) console.warn(`Dashboard browser tests skipped: ${browserSkipReason}`);

/**
 * Flags of a quiet, reproducible headless Chromium: no GPU, no QUIC, no first-run or background traffic of
 * its own (update checks, sync), so a test sees only the dashboard's requests.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium. Playwright starts it with a fresh `--user-data-dir` in a temporary folder of its own
 * (removed on close), so no state carries over between launches; each `newContext` is a separate profile.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** Builds the dashboard unless it is up to date (what `npm ci` and `npm start` do). */
export function ensureDashboardBuilt(): void {
  execFileSync(process.execPath, [join(ROOT, 'packages/dashboard/scripts/build-if-changed.mjs')], {
    stdio: 'ignore',
  });
}

/** A running `svc serve` serving the dashboard at `/`, with its private data dir. */
export interface DashboardServer {
  /** `http://127.0.0.1:<port>`: the API's and the dashboard's origin. */
  url: string;
  dataDir: string;
  /** The settings it runs with, for `svc` commands sharing its data dir (invites, operator commands). */
  env: Record<string, string>;
  /** Texts of the emails written to `<data-dir>/mail` for `address`, oldest first. */
  mailTo(address: string): string[];
  /** Waits for the `index`-th (0-based) email to `address` holding a link matching `path`, and returns the link. */
  linkFromEmail(address: string, path: RegExp, index?: number): Promise<string>;
  /** An SDK client of this server sending the dashboard's Origin, as the page's own calls do. */
  client(): SvcClient;
  close(): Promise<void>;
}

/**
 * Starts `svc serve` as `npm start` does (embedded engines, development, port 0) on a fresh data dir, with the
 * dashboard served on its own origin (SVC_DASHBOARD_URL unset). `env` adds settings (signup mode, …).
 */
export async function startDashboardServer(env: Record<string, string> = {}): Promise<DashboardServer> {
  ensureDashboardBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-dashboard-'));
  await Promise.all([seedColumnarStore(dataDir), svcBuilt()]);
  const settings = {
    SVC_ENV: 'development',
    SVC_SECRET: 'dashboard-e2e-secret-long-enough-for-hkdf-0123456789',
    // What production asks of a single-host server on its embedded engines (a test's env may say otherwise).
    ...(env.SVC_ENV === 'production'
      ? { SVC_ALLOW_EMBEDDED: 'true', SVC_METRICS_TOKEN: 'dashboard-e2e-metrics-token-0123' }
      : {}),
    ...env,
  };
  const child = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], settings);
  const url = await listeningUrl(child);
  const mailTo = (address: string) => outboxMailTo(dataDir, address);
  return {
    url,
    dataDir,
    env: settings,
    mailTo,
    async linkFromEmail(address, path, index = 0) {
      const pattern = new RegExp(`https?://[^\\s"<>]*${path.source}[^\\s"<>]*`);
      const links = await eventually(
        async () => mailTo(address).flatMap((mail) => pattern.exec(mail)?.[0] ?? []),
        (found) => found.length > index,
        15_000,
      );
      const link = links[index];
      if (link === undefined)
        throw new Error(
          `no email to ${address} with a link matching ${path}:\n${mailTo(address).join('\n---\n')}`,
        );
      return link;
    },
    client: () => createClient({ baseUrl: url, origin: url, maxRetries: 0 }),
    async close() {
      child.kill('SIGTERM');
      await exitOf(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The password test accounts use. */
export const PASSWORD = 'correct horse battery staple';

let sequence = 0;

/** A fresh address for a test account. */
export function newEmail(label = 'person'): string {
  sequence += 1;
  return `${label}${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Signs up and verifies an account through the API (not the page under test), and returns its address. */
export async function verifiedAccount(server: DashboardServer, email = newEmail()): Promise<string> {
  const client = server.client();
  await client.auth.signup({ email, password: PASSWORD });
  const link = await server.linkFromEmail(email, /\/verify-email\?token=/);
  await client.auth.verify(new URL(link).searchParams.get('token') ?? '');
  return email;
}

/** A new browser context (its own cookies and storage; `options` such as a viewport) and a page in it. */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the page's sign-in form and waits for the signed-in home. */
export async function signIn(
  page: Page,
  server: DashboardServer,
  email: string,
  password = PASSWORD,
): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
}

/**
 * The server's address under the name `localhost`: WebAuthn refuses an IP address as relying party, and a
 * dashboard served on loopback accepts both names (its relying party is `localhost`).
 */
export function localhostUrl(server: DashboardServer): string {
  return server.url.replace('//127.0.0.1:', '//localhost:');
}

/**
 * A virtual platform authenticator in the page's browser (Chrome DevTools Protocol WebAuthn domain): it holds
 * discoverable passkeys, verifies the user and answers every ceremony without a prompt.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Signs out with the header's account menu. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
}

const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

/** One axe-core violation as the tests report it. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules and best practices) on the page as it is, and answers the serious and
 * critical violations. The page's context must bypass its CSP (`newPage(browser, { bypassCSP: true })`): axe is
 * injected as a script of the test, which the dashboard's policy would rightly block.
 */
export async function seriousViolations(page: Page): Promise<AccessibilityViolation[]> {
  if ((await page.evaluate<boolean>("typeof window.axe === 'object'")) === false)
    await page.addScriptTag({ path: AXE });
  return page.evaluate<AccessibilityViolation[]>(`
    window.axe
      .run(document, { resultTypes: ['violations'] })
      .then((result) => result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        })))
  `);
}

/** Same-origin page links of the page as it is (the crawl's next steps); API paths and fragments left out. */
function pageLinks(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`
    [...document.querySelectorAll('a[href]')]
      .map((link) => new URL(link.getAttribute('href'), location.href))
      .filter((url) => url.origin === location.origin && !/^\\/(v1|docs)(\\/|$)/.test(url.pathname))
      .map((url) => url.pathname + url.search)
  `);
}

/**
 * Clicks a switch where a person does: on its track and words, the label that holds it. The control itself is a
 * visually hidden input (React Aria), which Playwright's hit test finds covered by that label.
 */
export async function flipSwitch(control: Locator, options: { delay?: number } = {}): Promise<void> {
  await control.locator('xpath=ancestor::label[1]').click(options);
}

/**
 * Waits until the page shows its heading (its data loaded or its problem shown). The logs page keeps its live
 * tail's stream open, so the network never idles there: it has settled once the tail says it is live.
 */
export async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  if (/\/logs$/.test(new URL(page.url()).pathname) && !page.url().includes('mode=search'))
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();
  else await page.waitForLoadState('networkidle');
}

/**
 * Walks the pages reachable from `start` (at most 60), each settled, and answers what `check` found on each page
 * where it found something, with how many pages were seen.
 */
export async function crawlPages<T>(
  page: Page,
  base: string,
  start: readonly string[],
  check: (page: Page) => Promise<T | undefined>,
): Promise<{ found: Record<string, T>; seen: number }> {
  const queue = [...start];
  const seen = new Set<string>();
  const found: Record<string, T> = {};
  while (queue.length > 0 && seen.size < 60) {
    const path = queue.shift() ?? '';
    if (seen.has(path)) continue;
    seen.add(path);
    await page.goto(`${base}${path}`);
    await settled(page);
    const result = await check(page);
    if (result !== undefined) found[path] = result;
    for (const link of await pageLinks(page)) if (!seen.has(link)) queue.push(link);
  }
  return { found, seen: seen.size };
}
