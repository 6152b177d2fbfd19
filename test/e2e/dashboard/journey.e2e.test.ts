import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  flipSwitch,
  launchBrowser,
  newEmail,
  newPage,
  PASSWORD,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';
import { makeOperator, signedInClient, simulateTraffic } from '../../support/dashboard-data.js';

const number = new Intl.NumberFormat('en-US');

/**
 * The customer's whole first day in Chromium, against `svc serve` on the embedded engines: sign up, verify from
 * the emailed link, create a profile, write rules and turn a list on, let the edge (`svc simulate`) send
 * traffic, read it in the logs and the charts, report a wrongly blocked domain, add a node; then an operator
 * blocks a domain and triages the report.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: the customer journey', () => {
  let server: DashboardServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startDashboardServer({ SVC_SIGNUP_MODE: 'open' }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const tab = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Profile' }).getByRole('link', { name, exact: true }).click();

  it('signs up, sets a profile up, sees its traffic, adds a node; an operator acts on it', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page.setDefaultTimeout(30_000);
    const email = newEmail('journey');

    // Sign up, and verify from the link in the .eml the server wrote.
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.goto(await server.linkFromEmail(email, /\/verify-email\?token=ver_/));
    await page.getByRole('status').getByText('is verified').waitFor();
    await signIn(page, server, email);

    // A profile, its rules and a blocklist.
    await page.getByLabel('Name').fill('Family');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Family' }).waitFor();
    const profileId = /\/profiles\/([a-z0-9]{6})$/.exec(page.url())?.[1] ?? '';
    await tab(page, 'Rules');
    await page.getByRole('textbox', { name: 'Add to denied names' }).fill('tiktok.com\nbytedance.com');
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    await page.getByRole('status').filter({ hasText: 'Added 2 rules' }).waitFor();
    await tab(page, 'Blocklists');
    await flipSwitch(page.getByRole('switch', { name: 'StevenBlack unified hosts' }));
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByText('StevenBlack unified hosts: on.')
      .waitFor();

    // The edge resolvers answer its devices for two days.
    const summary = await simulateTraffic(server, profileId, {
      queries: 2_000,
      days: 2,
      devices: 3,
      seed: 21,
    });
    expect(summary.queries).toBe(2_000);

    // The live tail opens with the latest rows; a search finds the denied names with their rule.
    await tab(page, 'Logs');
    const live = page.getByRole('table', { name: 'Live queries, newest first' });
    await live.getByRole('row').nth(1).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();
    await page.goto(`${server.url}/profiles/${profileId}/logs?mode=search&status=blocked&qname=tiktok`);
    const found = page.getByRole('table', { name: 'Queries found, newest first' });
    await found.getByRole('row').nth(1).waitFor();
    await found.getByRole('row').nth(1).getByRole('button').click();
    const details = page.getByRole('region', { name: /tiktok\.com$/ });
    await details.getByText('One of your rules').waitFor();

    // A name the list blocked, reported as wrongly blocked.
    await page.goto(`${server.url}/profiles/${profileId}/logs?mode=search&status=blocked&list=1`);
    await found.getByRole('row').nth(1).waitFor();
    const listed = (await found.getByRole('row').nth(1).getByRole('button').textContent()) ?? '';
    await found.getByRole('row').nth(1).getByRole('button').click();
    const report = page.getByRole('region', { name: listed });
    await report.getByText('StevenBlack unified hosts (id 1)').waitFor();
    await report.getByRole('button', { name: 'Report this as wrongly blocked' }).click();
    await report.getByRole('textbox', { name: 'What is wrong' }).fill('My school uses it');
    await report.getByRole('button', { name: 'Send the report' }).click();
    await report.getByRole('status').filter({ hasText: 'Reported' }).waitFor();

    // The charts count every query the edge answered.
    await tab(page, 'Analytics');
    await page.getByRole('combobox', { name: 'Time range' }).selectOption({ label: 'Last 7 days' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page
      .getByRole('region', { name: 'Queries by status' })
      .getByText(number.format(2_000), { exact: true })
      .waitFor();
    await page.getByRole('region', { name: 'Queries over time' }).getByRole('img').waitFor();
    const reasons = page.getByRole('region', { name: 'Top reasons' });
    await reasons.getByRole('link', { name: 'tiktok.com', exact: true }).waitFor();
    await reasons.getByRole('link', { name: 'StevenBlack unified hosts' }).waitFor();

    // A self-hosted node, its enrolment code shown once.
    await tab(page, 'Nodes');
    await page.getByRole('textbox', { name: 'Node name' }).fill('basement');
    await page.getByRole('button', { name: 'Create node' }).click();
    await page
      .getByRole('region', { name: 'Enrol basement' })
      .getByText(/^svcenrol_/)
      .waitFor();
    await context.close();

    // An operator blocks a domain for everyone and accepts the report.
    const operator = await verifiedAccount(server, newEmail('journey-operator'));
    await makeOperator(server, operator);
    const { page: desk } = await newPage(browser);
    desk.setDefaultTimeout(30_000);
    await signIn(desk, server, operator);
    await desk.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
    const queued = desk.getByRole('listitem', { name: listed });
    await queued
      .getByRole('textbox', { name: 'Note to the reporter' })
      .fill('Removed from our copy of the list.');
    await queued.getByRole('button', { name: 'Record the decision' }).click();
    await queued.waitFor({ state: 'detached' });
    await desk
      .getByRole('navigation', { name: 'Operator' })
      .getByRole('link', { name: 'Operator blocks' })
      .click();
    await desk.getByRole('textbox', { name: 'Pattern' }).fill('malware-drop.example');
    await desk.getByRole('button', { name: 'Create the block' }).click();
    await desk.getByRole('status').filter({ hasText: 'Blocked malware-drop.example' }).waitFor();
    await desk.context().close();

    const owner = await signedInClient(server, email);
    const [stored] = await owner.profiles.listReports.list(profileId).toArray();
    expect(stored).toMatchObject({ domain: listed, status: 'accepted', note: 'My school uses it' });
  }, 400_000);
});
