import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  crawlPages,
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  PASSWORD,
  seriousViolations,
  settled,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';

/** The pages anyone can open, with or without the token of an emailed link. */
const PUBLIC_PAGES = [
  '/login',
  '/signup',
  '/reset-password',
  '/reset-password?token=rst_not-a-real-token',
  '/recover-account',
  '/verify-email',
  '/login?recovery=rec_not-a-real-token',
  '/waitlist/confirm',
  '/no-such-page',
];

describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: accessibility (axe-core, keyboard)',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 180_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('has no serious or critical axe violation on the public pages, their problems included', async () => {
      const { page } = await newPage(browser, { bypassCSP: true });
      page.setDefaultTimeout(15_000);
      const found: Record<string, unknown> = {};
      for (const path of PUBLIC_PAGES) {
        await page.goto(`${server.url}${path}`);
        await settled(page);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[path] = violations;
      }
      // A problem shown at a form, with its summary and the field's own message.
      await page.goto(`${server.url}/signup`);
      await page.getByLabel('Email address', { exact: true }).fill('not an address');
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').waitFor();
      const withErrors = await seriousViolations(page);
      if (withErrors.length > 0) found['/signup (errors)'] = withErrors;
      expect(found).toEqual({});
      await page.context().close();
    });

    it('has no serious or critical axe violation on any page reachable from the signed-in navigation', async () => {
      const email = await verifiedAccount(server, newEmail('a11y'));
      // Something to show on the profile pages.
      const client = server.client();
      await client.auth.login({ email, password: PASSWORD });
      await client.profiles.create({ name: 'Home' });
      const { page } = await newPage(browser, { bypassCSP: true });
      page.setDefaultTimeout(15_000);
      await signIn(page, server, email);

      const { found, seen } = await crawlPages(
        page,
        server.url,
        [
          '/profiles',
          '/account',
          '/account/security',
          '/account/tokens',
          '/account/members',
          '/account/audit',
          '/feedback',
        ],
        async (visited) => {
          const violations = await seriousViolations(visited);
          return violations.length > 0 ? violations : undefined;
        },
      );
      expect(seen).toBeGreaterThanOrEqual(6);
      expect(found).toEqual({});
      await page.context().close();
    });

    it('can be used with the keyboard alone: skip link, sign-in, navigation and a form', async () => {
      const email = await verifiedAccount(server, newEmail('keyboard'));
      const { page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      const focused = () =>
        page.evaluate<string>(
          "(document.activeElement?.getAttribute('name') || document.activeElement?.textContent || '').trim()",
        );
      /** Presses Tab until the focused control is `name` (a form control's name, or a link's text). */
      const tabTo = async (name: string) => {
        for (let presses = 0; presses < 30; presses += 1) {
          await page.keyboard.press('Tab');
          if ((await focused()) === name) return;
        }
        throw new Error(`Tab never reached ${name}`);
      };

      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      // The first Tab reaches the skip link, which moves focus to the page's content.
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Skip to main content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate<string>("document.activeElement?.id ?? ''")).toBe('main');

      await tabTo('email');
      await page.keyboard.type(email);
      await tabTo('password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();

      await tabTo('Account');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      await tabTo('API tokens');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();

      await tabTo('name');
      await page.keyboard.type('Keyboard');
      await tabTo('scopes');
      await page.keyboard.press('Space');
      await tabTo('Create token');
      await page.keyboard.press('Enter');
      expect(await page.getByLabel('Token secret', { exact: true }).inputValue()).toMatch(/^svc_/);
      await page.context().close();
    });
  },
);
