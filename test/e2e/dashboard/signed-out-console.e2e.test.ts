import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  newPage,
  startDashboardServer,
} from '../../support/dashboard-browser.js';

/**
 * A signed-out visit leaves the browser's console clean (issue 36: Lighthouse counts every error there, and a
 * 401 from GET /v1/auth/me was one): the dashboard asks GET /v1/auth/status, which says "signed out" with a 200.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: a signed-out visit', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page, with every console error, uncaught exception and failed API answer it meets. */
  async function watched(): Promise<{ page: Page; errors: string[]; statuses: Map<string, number> }> {
    const { page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    const statuses = new Map<string, number>();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/v1/')) statuses.set(path, response.status());
    });
    return { page, errors, statuses };
  }

  it.each([
    ['the sign-in page', '/login'],
    ['the home page', '/'],
    ['a signed-in page', '/profiles'],
  ])('shows the sign-in page from %s with no error in the console', async (_what, path) => {
    const { page, errors, statuses } = await watched();
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(errors).toEqual([]);
    // Signed out was learnt from an answer, not from a failure.
    expect(statuses.get('/v1/auth/status')).toBe(200);
    expect(statuses.has('/v1/auth/me')).toBe(false);
    expect([...statuses.values()].filter((status) => status >= 400)).toEqual([]);
    await page.context().close();
  });
});
