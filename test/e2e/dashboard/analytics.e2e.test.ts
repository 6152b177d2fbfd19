import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryRecords, type SvcClient } from '@svc/sdk';
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
import { signedInClient, simulateTraffic } from '../../support/dashboard-data.js';
import { logRow, startInProcessDashboard } from '../../support/dashboard-in-process.js';
import { tinyCountryDatabase } from '../query-log/tiny-mmdb.js';

const number = new Intl.NumberFormat('en-US');

/** Analytics in Chromium over simulated traffic (`svc simulate`): range, chart, counts, top lists, links to logs. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: analytics', () => {
  let server: DashboardServer;
  let browser: Browser;
  let email: string;
  let api: SvcClient;
  let profileId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    email = await verifiedAccount(server, newEmail('analytics'));
    api = await signedInClient(server, email);
    const profile = await api.profiles.create({ name: 'Household' });
    await api.profiles.rules.replace(profile.id, { deny: ['tiktok.com'], allow: [], rewrites: [] });
    profileId = profile.id;
    await simulateTraffic(server, profileId, { queries: 3_000, days: 7, devices: 3, seed: 11 });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function analytics(query = ''): Promise<Page> {
    const { page } = await newPage(browser);
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1280, height: 1800 });
    await signIn(page, server, email);
    await page.goto(`${server.url}/profiles/${profileId}/analytics${query}`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    return page;
  }

  const panel = (page: Page, title: string) => page.getByRole('region', { name: title });

  it('shows a week: the stacked timeline, counts by status and the top lists the API answers', async () => {
    const page = await analytics();
    await page.getByRole('combobox', { name: 'Time range' }).selectOption({ label: 'Last 7 days' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/range=7d/);
    const to = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
    const from = new Date(to.getTime() - 7 * 86_400_000);
    const counts = queryRecords(await api.profiles.analytics.countsByStatus(profileId, { from, to }));
    const total = counts.reduce((sum, row) => sum + Number(row.count), 0);
    expect(total).toBeGreaterThan(2_500);
    const byStatus = panel(page, 'Queries by status');
    await byStatus.getByText(number.format(total), { exact: true }).waitFor();

    const timeline = panel(page, 'Queries over time');
    await timeline
      .getByRole('img', {
        name: /Stacked chart of allowed, rewritten, blocked and failed queries, last 7 days/,
      })
      .waitFor();
    expect(await timeline.locator('canvas').count()).toBe(1);
    await timeline.getByText('The numbers behind the chart').click();
    // The table fills in after the disclosure opens: wait for the hours rather than count at once.
    await expect.poll(() => timeline.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(24);

    const topDomains = queryRecords(
      await api.profiles.analytics.topDomains(profileId, { from, to, limit: 10 }),
    );
    const first = String(topDomains[0]?.qname);
    const domains = panel(page, 'Top domains');
    await domains.getByRole('link', { name: first, exact: true }).waitFor();
    expect(await domains.getByRole('row').count()).toBe(topDomains.length + 1);

    await panel(page, 'Top blocked domains').getByRole('link', { name: 'tiktok.com' }).first().waitFor();
    // Each panel loads on its own: wait for the devices' rather than count them at once.
    await expect
      .poll(() => panel(page, 'Top devices').getByRole('link').count(), { timeout: 15_000 })
      .toBe(3);
    await panel(page, 'Top reasons').getByText('(rule)').first().waitFor();
    await panel(page, 'Points of presence').getByRole('row').nth(1).waitFor();
    // Without a GeoIP database the countries are unknown, and no credit is shown.
    await panel(page, 'Destinations').getByRole('cell', { name: 'unknown' }).first().waitFor();
    await page.context().close();
  }, 120_000);

  it('lays a top list out as labelled cards on a phone, with nothing scrolling sideways', async () => {
    const { page } = await newPage(browser);
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server, email);
    await page.goto(`${server.url}/profiles/${profileId}/analytics?range=7d`);
    const domains = panel(page, 'Top domains');
    const firstRow = domains.getByRole('table', { name: 'Most queried domains' }).locator('tbody tr').first();
    await firstRow.getByRole('link').waitFor();
    // The header row gives way to each cell's own label (data-label, shown above its value).
    expect(await domains.locator('thead').isVisible()).toBe(false);
    const count = firstRow.locator('td').first();
    expect(await count.getAttribute('data-label')).toBe('Queries');
    // The count is stacked under the item, not beside it: same left edge, lower down.
    const itemBox = await firstRow.locator('th').boundingBox();
    const countBox = await count.boundingBox();
    expect(Math.abs((countBox?.x ?? -1) - (itemBox?.x ?? 0))).toBeLessThan(2);
    expect(countBox?.y ?? 0).toBeGreaterThan(itemBox?.y ?? 0);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.context().close();
  });

  it('opens the logs filtered by the item clicked, over the same range', async () => {
    const page = await analytics('?range=7d');
    const devices = panel(page, 'Top devices');
    const device = devices.getByRole('link').first();
    const deviceName = (await device.textContent()) ?? '';
    await device.click();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    const address = new URL(page.url());
    expect(address.searchParams.get('mode')).toBe('search');
    expect(address.searchParams.get('from')).not.toBeNull();
    expect(address.searchParams.getAll('device')).toHaveLength(1);
    const table = page.getByRole('table', { name: 'Queries found, newest first' });
    await table.getByRole('row').nth(1).waitFor();
    const shownDevices = await table
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((row) => row.children[4]?.textContent ?? ''));
    expect(new Set(shownDevices)).toEqual(new Set([deviceName]));

    await page.goBack();
    await panel(page, 'Top blocked domains').getByRole('link', { name: 'tiktok.com' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    expect(new URL(page.url()).searchParams.getAll('status')).toEqual(['blocked']);
    await page
      .getByRole('button', { name: /tiktok\.com$/ })
      .first()
      .waitFor();
    await page.context().close();
  }, 120_000);

  it('shows a refused shape in its own panel, the others still answering', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 40 * 86_400_000);
    const page = await analytics(
      `?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString() })}`,
    );
    await panel(page, 'Destinations').getByRole('heading', { name: 'The time range is too long' }).waitFor();
    await panel(page, 'Top devices').getByRole('heading', { name: 'The time range is too long' }).waitFor();
    await panel(page, 'Queries over time').getByRole('img').waitFor();
    expect(await panel(page, 'Top domains').getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: '/tmp/analytics-40d.png', fullPage: true });
    await page.context().close();
  }, 120_000);
});

/** Destinations with the countries of a GeoIP database, and the credit its licence asks for (spec 4.6 rule 5). */
describe.skipIf(browserSkipReason !== undefined)('dashboard: destinations with GeoIP countries', () => {
  const folder = mkdtempSync(join(tmpdir(), 'svc-dashboard-geoip-'));
  const database = join(folder, 'countries.mmdb');
  writeFileSync(database, tinyCountryDatabase({ '8.8.8.0/24': 'US', '94.130.0.0/16': 'DE' }));
  let server: Awaited<ReturnType<typeof startInProcessDashboard>>;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startInProcessDashboard({ SVC_GEOIP_DB: database }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('names the countries of public answer addresses and shows the GeoIP credit beside them', async () => {
    const email = await verifiedAccount(server, newEmail('geoip'));
    const owner = await signedInClient(server, email);
    const profile = await owner.profiles.create({ name: 'Abroad' });
    const at = Date.now() - 10 * 60_000;
    await server.writeRows([
      logRow(profile.id, { qname: 'dns.google', answerIps: ['8.8.8.8'], ts: new Date(at) }),
      logRow(profile.id, { qname: 'dns.google', answerIps: ['8.8.8.8'], ts: new Date(at + 1000) }),
      logRow(profile.id, { qname: 'hetzner.example', answerIps: ['94.130.1.2'], ts: new Date(at + 2000) }),
      logRow(profile.id, { qname: 'printer.lan', answerIps: ['192.168.1.9'], ts: new Date(at + 3000) }),
    ]);
    const { page } = await newPage(browser);
    page.setDefaultTimeout(30_000);
    await signIn(page, server, email);
    await page.goto(`${server.url}/profiles/${profile.id}/analytics?range=1h`);
    const destinations = page.getByRole('region', { name: 'Destinations' });
    const google = destinations.getByRole('row', { name: /8\.8\.8\.8/ });
    await google.getByRole('cell', { name: 'United States (US)' }).waitFor();
    expect(await google.getByRole('cell', { name: '2', exact: true }).count()).toBe(1);
    await destinations
      .getByRole('row', { name: /94\.130\.1\.2/ })
      .getByRole('cell', { name: 'Germany (DE)' })
      .waitFor();
    await destinations
      .getByRole('row', { name: /192\.168\.1\.9/ })
      .getByRole('cell', { name: 'unknown' })
      .waitFor();
    await destinations.getByText(/GeoLite2 data created by MaxMind/).waitFor();
    await page.context().close();
  }, 120_000);
});
