import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
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
import { makeOperator } from '../../support/dashboard-data.js';

/** The colours the page's body is painted with: what the reader sees, light or dark. */
function bodyColours(page: Page): Promise<{ background: string; text: string }> {
  return page.evaluate<{ background: string; text: string }>(`(() => {
    const style = getComputedStyle(document.body);
    const root = getComputedStyle(document.documentElement);
    return { background: root.backgroundColor, text: style.color };
  })()`);
}

/**
 * Issue 36: the design tokens have a dark theme (prefers-color-scheme: dark) in which every text keeps AA
 * contrast. axe-core's colour-contrast rule runs on the pages most people see, their dialogs and menus open.
 */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: dark mode',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 180_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;
    let email: string;
    let profileId: string;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
      email = await verifiedAccount(server, newEmail('dark'));
      await makeOperator(server, email);
      const client = server.client();
      await client.auth.login({ email, password: PASSWORD });
      profileId = (await client.profiles.create({ name: 'Night owl' })).id;
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('paints pages dark and keeps every text at AA contrast (axe colour-contrast), menus and dialogs open', async () => {
      const { page } = await newPage(browser, { bypassCSP: true });
      page.setDefaultTimeout(15_000);
      await page.emulateMedia({ colorScheme: 'dark' });
      const found: Record<string, unknown> = {};
      const check = async (name: string) => {
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[name] = violations;
      };

      await page.goto(`${server.url}/login`);
      await settled(page);
      const dark = await bodyColours(page);
      await check('/login');
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await bodyColours(page)).not.toEqual(dark);
      await page.emulateMedia({ colorScheme: 'dark' });
      // Dark: a background darker than its text.
      const luminance = (colour: string) =>
        (colour.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, part) => sum + Number(part), 0);
      expect(luminance(dark.background)).toBeLessThan(luminance(dark.text));

      await signIn(page, server, email);
      for (const path of [
        '/profiles',
        `/profiles/${profileId}`,
        `/profiles/${profileId}/security`,
        `/profiles/${profileId}/devices`,
        '/account',
        '/account/security',
        '/operator/blocks',
        '/operator/accounts?q=example',
      ]) {
        await page.goto(`${server.url}${path}`);
        await settled(page);
        await check(path);
      }

      // The account menu, open.
      await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
      await check('account menu');
      await page.keyboard.press('Escape');

      // A confirmation dialog, open: create a block, then ask to remove it.
      await page.goto(`${server.url}/operator/blocks`);
      await settled(page);
      await page.getByRole('textbox', { name: 'Pattern' }).fill('night.example');
      await page.getByRole('button', { name: 'Create the block' }).click();
      await page.getByRole('button', { name: 'Remove night.example' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Keep it' }).waitFor();
      await check('confirmation dialog');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Keep it' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });

      expect(found).toEqual({});
      await page.context().close();
    });
  },
);
