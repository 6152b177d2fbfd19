import { gzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  newEmail,
  PASSWORD,
  startDashboardServer,
  verifiedAccount,
} from '../support/dashboard-browser.js';
import { simulateTraffic } from '../support/dashboard-data.js';
import { lighthouseLines, lighthouseScores, meetsTargets } from './dashboard-lighthouse.js';

/**
 * `npm run bench -- --only dashboard`. Serves the built dashboard with `svc serve` and loads it in Chromium
 * (Debian's, through playwright-core) with an empty cache, printing next to the budgets:
 * - the initial JavaScript of the sign-in page and of the signed-in app (the profile list): every script the
 *   page loads until its heading shows and the network is idle, as gzip (level 9) and as sent (brotli);
 * - the time from navigation to the page's heading (shown, data loaded), on loopback, median of five;
 * - Lighthouse's performance, accessibility and best-practices scores of the sign-in page, a profile's
 *   overview, its logs and its analytics (over a day of simulated traffic), mobile and desktop, against the
 *   issue's floors (dashboard-lighthouse.ts); `BENCH_LIGHTHOUSE=0` leaves them out.
 * The budgets are the ratio's baseline: a ratio above 1 is over budget, and the bench exits 1, as it does when
 * a score is below its floor.
 */
const BUDGET_KB = { signIn: 150, app: 250 } as const;
const TURNS = 5;

interface Loaded {
  /** Initial JavaScript, gzip level 9, in KB. */
  gzipKb: number;
  /** As the server sent it (precompressed brotli), in KB. */
  sentKb: number;
  scripts: number;
  /** Navigation to heading shown, in ms. */
  ms: number;
}

async function load(
  browser: Browser,
  url: string,
  heading: string,
  cookie?: { name: string; value: string; url: string },
): Promise<Loaded> {
  const context = await browser.newContext();
  if (cookie !== undefined) await context.addCookies([cookie]);
  const page = await context.newPage();
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  const started = performance.now();
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  const ms = performance.now() - started;
  await page.waitForLoadState('networkidle');
  let gzip = 0;
  let sent = 0;
  for (const response of scripts) {
    const body = await response.body();
    gzip += gzipSync(body, { level: 9 }).length;
    sent += Number((await response.allHeaders())['content-length'] ?? body.length);
  }
  await context.close();
  return { gzipKb: gzip / 1024, sentKb: sent / 1024, scripts: scripts.length, ms };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measure(
  browser: Browser,
  url: string,
  heading: string,
  cookie?: { name: string; value: string; url: string },
): Promise<Loaded> {
  const turns: Loaded[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) turns.push(await load(browser, url, heading, cookie));
  const first = turns[0];
  if (first === undefined) throw new Error('no turn ran');
  return { ...first, ms: median(turns.map((turn) => turn.ms)) };
}

function line(name: string, loaded: Loaded, budgetKb: number): string {
  const ratio = loaded.gzipKb / budgetKb;
  return (
    `${name.padEnd(22)} ${loaded.gzipKb.toFixed(1).padStart(6)} KB gzip (${loaded.sentKb.toFixed(1)} KB sent, ` +
    `${loaded.scripts} scripts)  budget ${budgetKb} KB  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? 'ok' : 'OVER'}` +
    `  |  heading shown after ${loaded.ms.toFixed(0)} ms (median of ${TURNS})`
  );
}

if (browserSkipReason !== undefined) {
  process.stdout.write(`dashboard bench skipped: ${browserSkipReason}\n`);
} else {
  let server: DashboardServer | undefined;
  let browser: Browser | undefined;
  try {
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    const email = await verifiedAccount(server, newEmail('bench'));
    const client = server.client();
    await client.auth.login({ email, password: PASSWORD });
    const profile = await client.profiles.create({ name: 'Home' });
    const cookie = { name: 'svc_session', value: client.sessionCookie() ?? '', url: server.url };

    const signIn = await measure(browser, `${server.url}/login`, 'Sign in');
    const app = await measure(browser, `${server.url}/profiles`, 'Profiles', cookie);
    process.stdout.write(`${line('sign-in page', signIn, BUDGET_KB.signIn)}\n`);
    process.stdout.write(`${line('app (profile list)', app, BUDGET_KB.app)}\n`);
    if (signIn.gzipKb > BUDGET_KB.signIn || app.gzipKb > BUDGET_KB.app) process.exitCode = 1;

    if (process.env.BENCH_LIGHTHOUSE !== '0') {
      await simulateTraffic(server, profile.id, { queries: 5_000, days: 1, devices: 3 });
      const base = `/profiles/${profile.id}`;
      const pages = [
        { name: 'sign-in', path: '/login', signedIn: false },
        { name: 'profile overview', path: base, signedIn: true },
        { name: 'logs', path: `${base}/logs`, signedIn: true },
        { name: 'analytics', path: `${base}/analytics`, signedIn: true },
      ];
      // BENCH_LIGHTHOUSE_PAGES=logs,analytics audits only those, to look into one page without the others' minutes.
      const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((name) => name.trim());
      const scores = await lighthouseScores(
        server.url,
        only === undefined ? pages : pages.filter((page) => only.includes(page.name)),
        cookie.value,
      );
      process.stdout.write(`${lighthouseLines(scores).join('\n')}\n`);
      if (!scores.every(meetsTargets)) process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    await server?.close();
  }
}
