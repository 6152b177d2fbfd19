import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSkipReason } from '../../support/dashboard-browser.js';
import { logRow, startInProcessDashboard } from '../../support/dashboard-in-process.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

const SECOND = 1000;

/** The logs page in Chromium, against an API whose edge the test plays: live tail, search, details, actions. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: logs', () => {
  const dashboard = signedInDashboard('logs', { start: () => startInProcessDashboard() });

  async function logsOf(profileId: string, query = ''): Promise<Page> {
    const path = `/profiles/${profileId}/logs${query}`;
    return (await dashboard.signedInPage({ path, heading: 'Logs' })).page;
  }

  const domain = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

  it('tails live: the latest rows first, new ones as they arrive, held while the reader scrolls', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Live' });
    const now = Date.now();
    await dashboard.server.writeRows(
      Array.from({ length: 60 }, (_value, index) =>
        logRow(profile.id, { qname: `old-${index}.example`, ts: new Date(now - 60 * SECOND + index * 100) }),
      ),
    );
    const page = await logsOf(profile.id);
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();
    await domain(page, 'old-59.example').waitFor();

    await dashboard.server.writeRows([logRow(profile.id, { qname: 'arrived.example' })]);
    await domain(page, 'arrived.example').waitFor();
    const table = page.getByRole('table', { name: 'Live queries, newest first' });
    expect(await table.getByRole('row').nth(1).getByRole('button').textContent()).toBe('arrived.example');

    // Scrolling away from the newest rows pauses the view: arrivals are held and counted, not inserted.
    await table.hover();
    await page.mouse.wheel(0, 800);
    await page
      .getByRole('status')
      .filter({ hasText: /^Paused$/ })
      .waitFor();
    await dashboard.server.writeRows([logRow(profile.id, { qname: 'held.example' })]);
    const show = page.getByRole('button', { name: 'Show 1 new query' });
    await show.waitFor();
    expect(await domain(page, 'held.example').count()).toBe(0);
    await show.click();
    await domain(page, 'held.example').waitFor();
    await page.context().close();
  }, 90_000);

  it('resumes after the connection drops, without losing or repeating a row', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Flaky' });
    await dashboard.server.writeRows([
      logRow(profile.id, { qname: 'before.example', ts: new Date(Date.now() - SECOND) }),
    ]);
    const page = await logsOf(profile.id);
    await domain(page, 'before.example').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();

    const network = dashboard.server.interrupt();
    await page.getByRole('status').filter({ hasText: 'Connection lost: reconnecting…' }).waitFor();
    await dashboard.server.writeRows([logRow(profile.id, { qname: 'during.example' })]);
    network.restore();
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 30_000 });
    await domain(page, 'during.example').waitFor();
    await dashboard.server.writeRows([logRow(profile.id, { qname: 'after.example' })]);
    await domain(page, 'after.example').waitFor();
    for (const name of ['before.example', 'during.example', 'after.example'])
      expect(await domain(page, name).count(), name).toBe(1);
    await page.context().close();
  }, 90_000);

  it('keeps thousands of rows with only the visible few in the page', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Busy' });
    const start = Date.now() - 3_600 * SECOND;
    await dashboard.server.writeRows(
      Array.from({ length: 2_500 }, (_value, index) =>
        logRow(profile.id, { qname: `host-${index}.example`, ts: new Date(start + index * SECOND) }),
      ),
    );
    const page = await logsOf(profile.id, '?mode=search');
    await page.getByRole('button', { name: 'Load older queries' }).click();
    await page.getByRole('status').filter({ hasText: '2,000 queries' }).waitFor();
    await page.getByRole('button', { name: 'Load older queries' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^2,500 queries$/ })
      .waitFor();
    const table = page.getByRole('table', { name: 'Queries found, newest first' });
    expect(await table.getAttribute('aria-rowcount')).toBe('2501');
    expect(await table.getByRole('row').count()).toBeLessThan(100);
    // Scrolled to the end, the oldest row is drawn (and the newest no longer is).
    await table.evaluate((element) => element.parentElement?.scrollTo({ top: 1e9 }));
    await domain(page, 'host-0.example').waitFor();
    expect(await domain(page, 'host-2499.example').count()).toBe(0);
    await page.context().close();
  });

  it('searches with the filters of spec 4.6, kept in the address, and shows the API’s 422 at the field', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Search' });
    const base = Date.now() - 30 * 60 * SECOND;
    await dashboard.server.writeRows([
      logRow(profile.id, {
        qname: 'tracker.ads.example',
        ts: new Date(base),
        status: 'blocked',
        reasonListId: 1,
        reasonListName: 'StevenBlack unified hosts',
        rcode: 3,
        answerIps: [],
        qtype: 28,
        clientIp: '198.51.100.9',
        deviceId: 'phone-1',
        deviceName: 'phone',
      }),
      logRow(profile.id, {
        qname: 'news.example',
        ts: new Date(base + SECOND),
        qtype: 1,
        clientIp: '198.51.100.9',
      }),
      logRow(profile.id, {
        qname: 'tracker.other.example',
        ts: new Date(base + 2 * SECOND),
        status: 'blocked',
        reasonRule: 'other.example',
        rcode: 3,
        answerIps: [],
        qtype: 1,
      }),
      logRow(profile.id, {
        qname: 'fail.example',
        ts: new Date(base + 3 * SECOND),
        status: 'error',
        rcode: 2,
        answerIps: [],
      }),
    ]);
    const page = await logsOf(profile.id);
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('radio', { name: /^Search/ }).check();
    await page.getByRole('checkbox', { name: 'Blocked' }).check();
    await page.getByRole('textbox', { name: 'Domain' }).fill('tracker');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^2 queries$/ })
      .waitFor();
    await domain(page, 'tracker.ads.example').waitFor();
    await domain(page, 'tracker.other.example').waitFor();
    const address = new URL(page.url());
    expect(address.searchParams.get('mode')).toBe('search');
    expect(address.searchParams.getAll('status')).toEqual(['blocked']);
    expect(address.searchParams.get('qname')).toBe('tracker');

    await page.getByRole('textbox', { name: 'Query types' }).fill('AAAA');
    await page.getByRole('textbox', { name: 'Client IP address' }).fill('198.51.100.9');
    await page
      .getByRole('listbox', { name: 'Blocklists' })
      .selectOption({ label: 'StevenBlack unified hosts' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^1 query$/ })
      .waitFor();
    await page.reload();
    await page
      .getByRole('status')
      .filter({ hasText: /^1 query$/ })
      .waitFor();
    await domain(page, 'tracker.ads.example').waitFor();

    await page.getByRole('textbox', { name: 'Client IP address' }).fill('not-an-address');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'Some answers need changing' }).waitFor();
    const field = page.getByRole('textbox', { name: 'Client IP address' });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('must be an IPv4 or IPv6 address').first().waitFor();
    await page.context().close();
  });

  it('explains a blocked query, reports the list as wrong about it, and allows the domain', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Details' });
    await dashboard.server.writeRows([
      logRow(profile.id, {
        qname: 'shop.example',
        status: 'blocked',
        reasonListId: 1,
        reasonListName: 'StevenBlack unified hosts',
        rcode: 3,
        answerIps: [],
        ts: new Date(Date.now() - 5 * SECOND),
      }),
      logRow(profile.id, {
        qname: 'cdn.example',
        answerIps: ['192.0.2.10', '2001:db8::10'],
        ts: new Date(Date.now() - 4 * SECOND),
      }),
    ]);
    const page = await logsOf(profile.id);
    await domain(page, 'cdn.example').click();
    const details = page.getByRole('region', { name: 'cdn.example' });
    await details.getByText('192.0.2.10, 2001:db8::10').waitFor();
    expect(await details.getByRole('button', { name: 'Allow this domain' }).count()).toBe(0);

    await domain(page, 'shop.example').click();
    const blocked = page.getByRole('region', { name: 'shop.example' });
    await blocked.getByText('A blocklist').waitFor();
    expect(await blocked.textContent()).toContain('StevenBlack unified hosts (id 1)');
    expect(await blocked.textContent()).toMatch(/17 \(Filtered\)/);

    await blocked.getByRole('button', { name: 'Report this as wrongly blocked' }).click();
    await blocked.getByRole('textbox', { name: 'What is wrong' }).fill('It is my bank');
    await blocked.getByRole('button', { name: 'Send the report' }).click();
    await blocked.getByRole('status').filter({ hasText: 'Reported' }).waitFor();
    const reports = await dashboard.api.profiles.listReports.list(profile.id).toArray();
    expect(reports).toEqual([
      expect.objectContaining({
        domain: 'shop.example',
        list_id: 1,
        kind: 'false_positive',
        note: 'It is my bank',
      }),
    ]);

    await blocked.getByRole('button', { name: 'Allow this domain' }).click();
    await blocked.getByRole('status').filter({ hasText: 'shop.example is allowed now' }).waitFor();
    expect((await dashboard.api.profiles.rules.get(profile.id)).allow).toEqual(['shop.example']);
    await page.context().close();
  });
});
