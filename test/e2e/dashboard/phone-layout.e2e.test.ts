import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  crawlPages,
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  PASSWORD,
  settled,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';
import { makeOperator, simulateTraffic } from '../../support/dashboard-data.js';

/** A phone (390 × 844, as an iPhone 12 to 15 shows a page) and a laptop. */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

/**
 * How far the page reaches past the viewport's right edge, with the elements that stick out furthest (to say
 * what to mend): 0 when nothing makes the page scroll sideways.
 */
async function sidewaysOverflow(page: Page): Promise<{ by: number; widest: string[] }> {
  return page.evaluate<{ by: number; widest: string[] }>(`(() => {
    const width = document.documentElement.clientWidth;
    const by = document.documentElement.scrollWidth - width;
    const widest = [...document.querySelectorAll('body *')]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > width + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 3)
      .map(({ element, right }) => element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '') + ' ' + Math.round(right));
    return { by, widest };
  })()`);
}

/** Walks the pages reachable from `start` and answers those that scroll sideways. */
async function crawlForOverflow(page: Page, base: string, start: string[]): Promise<Record<string, unknown>> {
  const { found, seen } = await crawlPages(page, base, start, async (visited) => {
    const overflow = await sidewaysOverflow(visited);
    return overflow.by > 0 ? overflow : undefined;
  });
  expect(seen).toBeGreaterThanOrEqual(start.length);
  return found;
}

/** Issue 36: no page scrolls sideways on a phone, and nothing widens a page on a laptop. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: layout on a phone',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 240_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;
    let email: string;
    let profileId: string;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
      email = await verifiedAccount(server, newEmail('phone'));
      await makeOperator(server, email);
      const client = server.client();
      await client.auth.login({ email, password: PASSWORD });
      const profile = await client.profiles.create({ name: 'A household with a rather long name' });
      profileId = profile.id;
      await client.profiles.rules.replace(profileId, {
        deny: ['a-very-long-subdomain-name-that-goes-on.tracking.example.com'],
        allow: [],
        rewrites: [],
      });
      await simulateTraffic(server, profileId, { queries: 300, days: 1, devices: 2, seed: 5 });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('scrolls no page sideways at 390 px: sign-in, sign-up and every page of the signed-in navigation', async () => {
      const { page } = await newPage(browser, { viewport: PHONE });
      page.setDefaultTimeout(15_000);
      const found = await crawlForOverflow(page, server.url, ['/login', '/signup']);
      await signIn(page, server, email);
      Object.assign(
        found,
        await crawlForOverflow(page, server.url, [
          '/profiles',
          `/profiles/${profileId}`,
          `/profiles/${profileId}/logs?mode=search`,
          '/account',
          '/operator',
          // Operator search results: tables that become lists of cards on a phone.
          '/operator/accounts?q=phone',
          '/operator/profiles?q=household',
        ]),
      );
      expect(found).toEqual({});

      // The query log on a phone: time, status and the whole domain column in view, not clipped past the edge.
      await page.goto(`${server.url}/profiles/${profileId}/logs?mode=search`);
      await settled(page);
      const domain = page.locator('tbody .log-domain').first();
      await domain.waitFor();
      const box = await domain.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(100);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);

      // A row's details: every fact's value wraps inside the screen (a name above its value), none runs past it.
      await domain.click();
      const details = page.locator('.log-details');
      await details.waitFor();
      const reach = await details.evaluate((section) =>
        Math.max(
          ...[...section.querySelectorAll('*')].map((element) => element.getBoundingClientRect().right),
        ),
      );
      expect(reach).toBeLessThanOrEqual(PHONE.width);
      await page.context().close();
    });

    it('lays the overview’s sections out as cards: two columns on a laptop, one on a phone', async () => {
      for (const [viewport, columns] of [
        [PHONE, 1],
        [LAPTOP, 2],
      ] as const) {
        const { page } = await newPage(browser, { viewport });
        page.setDefaultTimeout(15_000);
        await signIn(page, server, email);
        for (const path of [`/profiles/${profileId}`, '/account']) {
          await page.goto(`${server.url}${path}`);
          await settled(page);
          // The page's own sections (the grid's items), not regions nested in them.
          const lefts = await page.evaluate<number[]>(`
            [...document.querySelectorAll('main section[aria-labelledby], main section[aria-label]')]
              .filter((region) => getComputedStyle(region.parentElement).display === 'grid')
              .map((region) => Math.round(region.getBoundingClientRect().left))
          `);
          expect(lefts.length, path).toBeGreaterThanOrEqual(2);
          expect(new Set(lefts).size, `${path} at ${viewport.width} px`).toBe(columns);
        }
        await page.context().close();
      }
    });

    it('folds the main navigation behind a Menu button on a phone, and shows found rows as cards', async () => {
      const { page } = await newPage(browser, { viewport: PHONE });
      page.setDefaultTimeout(15_000);
      await signIn(page, server, email);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      const menu = page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true });
      expect(await navigation.isVisible()).toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await navigation.getByRole('link', { name: 'Operator' }).click();
      await page.getByRole('heading', { level: 1, name: 'List reports' }).waitFor();
      expect(await navigation.isVisible()).toBe(false);

      // A found account: its cells stacked in one card as wide as the screen allows, the header row hidden.
      await page.goto(`${server.url}/operator/accounts?q=${encodeURIComponent(email)}`);
      await settled(page);
      const table = page.getByRole('table', { name: /^Accounts matching/ });
      const row = table.getByRole('row').filter({ hasText: email });
      await row.waitFor();
      const cells = await row
        .getByRole('cell')
        .evaluateAll((found) => found.map((cell) => Math.round(cell.getBoundingClientRect().left)));
      expect(new Set(cells).size).toBe(1);
      // Each cell says its column instead of a header row.
      expect(await table.getByRole('columnheader').count()).toBe(0);
      expect(await row.getByRole('cell').first().getAttribute('data-label')).toBe('Role');
      expect((await sidewaysOverflow(page)).by).toBe(0);

      // On a laptop the same navigation is in the header, no Menu button.
      await page.setViewportSize(LAPTOP);
      expect(await navigation.isVisible()).toBe(true);
      expect(await menu.isVisible()).toBe(false);
      await page.context().close();
    });

    it('keeps a new node’s enrolment command inside its box, on a phone and on a laptop', async () => {
      for (const viewport of [PHONE, LAPTOP]) {
        const { page } = await newPage(browser, { viewport });
        page.setDefaultTimeout(15_000);
        await signIn(page, server, email);
        await page.goto(`${server.url}/profiles/${profileId}/nodes`);
        await settled(page);
        const name = `node-${viewport.width}`;
        await page.getByRole('textbox', { name: 'Node name' }).fill(name);
        await page.getByRole('button', { name: 'Create node' }).click();
        const command = page.getByRole('region', { name: `Enrol ${name}` }).locator('pre');
        await command.waitFor();
        expect((await sidewaysOverflow(page)).by, `${viewport.width} px`).toBe(0);
        const box = await command.boundingBox();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
        await page.context().close();
      }
    });
  },
);
