import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';
import { makeOperator, signedInClient, simulateTraffic } from '../../support/dashboard-data.js';

/** docs/screenshots when DASHBOARD_SCREENSHOTS=1 (to refresh the committed ones), else a temporary folder. */
const OUT =
  process.env.DASHBOARD_SCREENSHOTS === '1'
    ? new URL('../../../docs/screenshots/', import.meta.url).pathname
    : mkdtempSync(join(tmpdir(), 'svc-screenshots-'));

/**
 * The screens shot: a laptop, and a phone (390 × 844, as an iPhone 12 to 15 shows a page, with its meta
 * viewport and touch) whose shots are named `<page>-phone.png`.
 */
const SCREENS = [
  { name: 'laptop', suffix: '', options: { viewport: { width: 1200, height: 900 } } },
  {
    name: 'phone',
    suffix: '-phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

/** The pages of a profile with a week of traffic, and the operator's queue, in the light scheme. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: screenshots of a profile with traffic', () => {
  let server: DashboardServer;
  let browser: Browser;
  let email: string;
  let operator: string;
  let profileId: string;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    email = await verifiedAccount(server, newEmail('screens'));
    const owner = await signedInClient(server, email);
    const profile = await owner.profiles.create({ name: 'Home' });
    profileId = profile.id;
    await owner.profiles.rules.replace(profile.id, {
      deny: ['tiktok.com', '*.doubleclick.net', '=ads.example.com'],
      allow: ['cdn.example.org'],
      rewrites: [{ pattern: 'nas.home.arpa', answer: '192.168.1.20' }],
    });
    await owner.profiles.lists.replace(profile.id, [1]);
    await simulateTraffic(server, profile.id, { queries: 20_000, days: 7, devices: 4, seed: 5 });
    const [blocked] = await owner.profiles.logs
      .query(profile.id, { mode: 'search', status: 'blocked', list: 1, limit: 1 })
      .then((result) => result.rows);
    const domain = String(blocked?.[9] ?? 'example.com');
    await owner.profiles.listReports.create(profile.id, {
      domain,
      list_id: 1,
      kind: 'false_positive',
      note: 'Our bank',
    });
    operator = await verifiedAccount(server, newEmail('screens-operator'));
    await makeOperator(server, operator);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Waits for `ready`, then writes the page as `<name>.png`, checking it is a page-sized image. */
  async function shoot(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
    await ready();
    const path = join(OUT, `${name}.png`);
    await page.screenshot({ path, fullPage: false });
    const size = statSync(path).size;
    expect(size, name).toBeGreaterThan(5_000);
    expect(size, name).toBeLessThan(250_000);
  }

  it.each(SCREENS)(
    'shoots the overview, rules, logs with a query’s details, analytics and the triage queue on a $name',
    async (screen) => {
      const { page } = await newPage(browser, { ...screen.options, colorScheme: 'light' });
      page.setDefaultTimeout(30_000);
      await signIn(page, server, email);
      const base = `${server.url}/profiles/${profileId}`;

      await page.goto(base);
      await shoot(page, `profile-overview${screen.suffix}`, () =>
        page.getByRole('button', { name: 'Copy the DoH URL' }).waitFor(),
      );
      await page.goto(`${base}/rules`);
      await shoot(page, `rules${screen.suffix}`, () =>
        page.getByRole('list', { name: 'Denied names' }).waitFor(),
      );
      await page.goto(`${base}/logs?mode=search&status=blocked`);
      const table = page.getByRole('table', { name: 'Queries found, newest first' });
      await table.getByRole('row').nth(1).getByRole('button').click();
      await shoot(page, `logs${screen.suffix}`, async () => {
        await page.getByRole('region').filter({ hasText: 'Decided by' }).waitFor();
      });
      await page.goto(`${base}/analytics?range=7d`);
      await shoot(page, `analytics${screen.suffix}`, () =>
        page.getByRole('region', { name: 'Queries over time' }).getByRole('img').waitFor(),
      );

      const { page: desk } = await newPage(browser, { ...screen.options, colorScheme: 'light' });
      desk.setDefaultTimeout(30_000);
      await signIn(desk, server, operator);
      await desk.goto(`${server.url}/operator`);
      await shoot(desk, `operator-triage${screen.suffix}`, () =>
        desk.getByRole('list', { name: 'Reports, oldest due first' }).waitFor(),
      );
      await desk.context().close();
      await page.context().close();
    },
    300_000,
  );
});
