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
  PASSWORD,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';

/**
 * Where the screenshots go: docs/screenshots when DASHBOARD_SCREENSHOTS=1 (to refresh the committed ones the
 * README shows), else a temporary folder, so that an ordinary test run leaves the repository as it was.
 */
const OUT =
  process.env.DASHBOARD_SCREENSHOTS === '1'
    ? new URL('../../../docs/screenshots/', import.meta.url).pathname
    : mkdtempSync(join(tmpdir(), 'svc-screenshots-'));

/**
 * The screens shot: a laptop, and a phone (390 × 844, as an iPhone 12 to 15 shows a page, with its meta
 * viewport and touch) whose shots are named `<page>-phone.png`.
 */
const SCREENS = [
  { name: 'laptop', suffix: '', options: { viewport: { width: 1200, height: 760 } } },
  {
    name: 'phone',
    suffix: '-phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

/** The main pages, as a person first sees them, in the light scheme on a laptop and on a phone. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: screenshots of the main pages',
  { timeout: 120_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;

    beforeAll(async () => {
      mkdirSync(OUT, { recursive: true });
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    async function shoot(page: Page, name: string): Promise<void> {
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const path = join(OUT, `${name}.png`);
      await page.screenshot({ path, fullPage: false });
      // Small enough to commit, large enough to show a page.
      const size = statSync(path).size;
      expect(size, name).toBeGreaterThan(5_000);
      expect(size, name).toBeLessThan(250_000);
    }

    it.each(SCREENS)(
      'shoots sign-in, profiles, account security and API tokens on a $name',
      async (screen) => {
        const email = await verifiedAccount(server, newEmail('screens'));
        const client = server.client();
        await client.auth.login({ email, password: PASSWORD });
        await client.profiles.create({ name: 'Home' });
        await client.profiles.create({ name: "Kids' tablets" });
        const { page } = await newPage(browser, { ...screen.options, colorScheme: 'light' });
        page.setDefaultTimeout(15_000);

        await page.goto(`${server.url}/login`);
        await shoot(page, `sign-in${screen.suffix}`);
        await signIn(page, server, email);
        await shoot(page, `profiles${screen.suffix}`);
        await page.goto(`${server.url}/account/security`);
        await shoot(page, `account-security${screen.suffix}`);
        await page.goto(`${server.url}/account/tokens`);
        await shoot(page, `api-tokens${screen.suffix}`);
        await page.context().close();
      },
    );
  },
);
