import type { SvcClient } from '@svc/sdk';
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
import { open, signedInClient } from '../../support/dashboard-data.js';

/** Pause filtering from the profile overview (issue 38), in a browser against the real API. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: pause a profile’s filtering', () => {
  let server: DashboardServer;
  let browser: Browser;
  let email: string;
  let api: SvcClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    email = await verifiedAccount(server, newEmail('pause'));
    api = await signedInClient(server, email);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('pauses for 15 minutes, shows it after a reload, and resumes', async () => {
    const profile = await api.profiles.create({ name: 'Paused home' });
    const { page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    await signIn(page, server, email);
    await open(page, server, `/profiles/${profile.id}`, 'Paused home');
    const section = (current: Page) => current.getByRole('region', { name: 'Pause filtering' });
    await section(page).getByRole('button', { name: '15 minutes' }).click();
    const status = section(page).getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^Filtering is paused until .+ \(in 1[45] minutes\)\.$/);
    expect((await api.profiles.get(profile.id)).paused_until).not.toBeNull();

    await page.reload();
    await section(page).getByRole('button', { name: 'Resume filtering' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Filtering resumed.').waitFor();
    await section(page).getByRole('button', { name: '15 minutes' }).waitFor();
    expect((await api.profiles.get(profile.id)).paused_until).toBeNull();
  });
});
