import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSkipReason } from '../../support/dashboard-browser.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

/** Pause filtering from the profile overview (issue 38), in a browser against the real API. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: pause a profile’s filtering', () => {
  const dashboard = signedInDashboard('pause');

  it('pauses for 15 minutes, shows it after a reload, and resumes', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Paused home' });
    const { page } = await dashboard.signedInPage({
      path: `/profiles/${profile.id}`,
      heading: 'Paused home',
    });
    const section = (current: Page) => current.getByRole('region', { name: 'Pause filtering' });
    await section(page).getByRole('button', { name: '15 minutes' }).click();
    const status = section(page).getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^Filtering is paused until .+ \(in 1[45] minutes\)\.$/);
    expect((await dashboard.api.profiles.get(profile.id)).paused_until).not.toBeNull();
    // Beside the heading, a badge says until when.
    await page.getByText(/^Paused until /).waitFor();

    await page.reload();
    await section(page).getByRole('button', { name: 'Resume filtering' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Filtering resumed.').waitFor();
    await section(page).getByRole('button', { name: '15 minutes' }).waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).paused_until).toBeNull();
  });
});
