import { describe, expect, it } from 'vitest';
import { browserSkipReason } from '../../support/dashboard-browser.js';
import { simulateTraffic } from '../../support/dashboard-data.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

/**
 * The dashboard's own code keeps to its Content-Security-Policy: a violation is a console error (it costs
 * Lighthouse's best-practices score) and a sign that something of the page did not apply. React Aria's
 * pressable style, which it would add as an inline <style>, comes from the stylesheet instead.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: no CSP violation of its own', () => {
  const dashboard = signedInDashboard('csp');

  it('opens the profile overview, its settings, logs and analytics with no console error', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Home' });
    await simulateTraffic(dashboard.server, profile.id, { queries: 50, days: 1, devices: 2 });
    const { page } = await dashboard.signedInPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    for (const [section, heading] of [
      ['', 'Home'],
      ['/settings', 'Settings'],
      ['/logs', 'Logs'],
      ['/analytics', 'Analytics'],
    ] as const) {
      await page.goto(`${dashboard.server.url}/profiles/${profile.id}${section}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      // Everything the page loads has come: nothing says it is still busy.
      await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
    }
    expect(errors).toEqual([]);
    // React Aria found its style present (the page's marker), so it added no <style> of its own.
    expect(await page.locator('style').count()).toBe(0);
    await page.context().close();
  });
});
