import type { SvcClient } from '@svc/sdk';
import type { Browser } from 'playwright-core';
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

/** A profile's schedules (issue 38), in a browser against the real API: made on their page, seen on the overview. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: a profile’s schedules', () => {
  let server: DashboardServer;
  let browser: Browser;
  let email: string;
  let api: SvcClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    email = await verifiedAccount(server, newEmail('schedules'));
    api = await signedInClient(server, email);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a schedule lasting every whole day, sees it active on its page and on the overview', async () => {
    const profile = await api.profiles.create({ name: 'Scheduled home' });
    await api.profiles.update(profile.id, { settings: { time_zone: 'Australia/Lord_Howe' } });
    const { page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    await signIn(page, server, email);
    await open(page, server, `/profiles/${profile.id}/schedules`, 'Schedules');
    await page.getByText('profile’s time zone, Australia/Lord_Howe').waitFor();

    await page.getByRole('button', { name: 'Add a schedule' }).click();
    const form = page.getByRole('form', { name: 'Add a schedule' });
    await form.getByLabel('Name').fill('always');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
      await form.getByLabel(day, { exact: true }).check();
    await form.getByLabel('From').fill('06:00');
    await form.getByLabel('Until').fill('06:00');
    await form.getByRole('status').getByText('Lasts 24 hours.').waitFor();
    await form.getByRole('button', { name: 'Save schedule' }).click();

    const item = page.getByRole('listitem', { name: 'always' });
    await item.getByText('Active now').waitFor();
    expect(await api.profiles.schedules.get(profile.id)).toEqual([
      {
        name: 'always',
        windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '06:00', end: '06:00' }],
      },
    ]);

    await page.getByRole('navigation', { name: 'Profile' }).getByRole('link', { name: 'Overview' }).click();
    await page
      .getByRole('region', { name: 'Schedules' })
      .getByText('Active now (Australia/Lord_Howe time): always.')
      .waitFor();
  });
});
