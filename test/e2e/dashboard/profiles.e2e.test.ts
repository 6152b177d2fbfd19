import { readFileSync } from 'node:fs';
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
import { open, signedInClient, simulateTraffic } from '../../support/dashboard-data.js';

/** Profiles in Chromium: list, create, overview and setup, the API-driven forms, deletion. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: profiles', () => {
  let server: DashboardServer;
  let browser: Browser;
  let email: string;
  let api: SvcClient;

  beforeAll(async () => {
    // The server trusts the loopback proxy, so a page's X-Forwarded-For plays a browser on another network.
    [server, browser] = await Promise.all([
      startDashboardServer({ SVC_TRUST_PROXY: 'loopback' }),
      launchBrowser(),
    ]);
    email = await verifiedAccount(server, newEmail('profiles'));
    api = await signedInClient(server, email);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(from?: string): Promise<Page> {
    const { context, page } = await newPage(
      browser,
      from === undefined ? {} : { extraHTTPHeaders: { 'x-forwarded-for': from } },
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page.setDefaultTimeout(20_000);
    await signIn(page, server, email);
    return page;
  }

  it('creates a profile from the list and opens its setup: addresses to copy, the Apple profile, QR codes', async () => {
    const page = await signedIn();
    await page.getByLabel('Name').fill('Home');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const id = /\/profiles\/([a-z0-9]{6})$/.exec(page.url())?.[1] ?? '';
    const profile = await api.profiles.get(id);
    expect(profile.name).toBe('Home');

    await page.getByRole('button', { name: 'Copy the DoH URL' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(profile.endpoints.doh);
    expect(await page.getByText(profile.endpoints.dot, { exact: true }).first().isVisible()).toBe(true);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the configuration profile' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`svc-Home-${id}.mobileconfig`);
    const plist = readFileSync((await file.path()) ?? '', 'utf8');
    expect(plist).toContain('<plist');
    expect(plist).toContain(profile.endpoints.doh);

    await page.getByRole('img', { name: 'QR code opening this setup page on a phone' }).waitFor();
    await page.getByRole('img', { name: 'QR code of the Android Private DNS host name' }).waitFor();

    // The list shows it, linked to its pages.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profiles' }).click();
    await page
      .getByRole('list', { name: 'Your profiles' })
      .getByRole('link', { name: 'Home', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.context().close();
  });

  it('offers the deployment’s choices, shows the API’s 422 message at the field, and saves', async () => {
    const profile = await api.profiles.create({ name: 'Settings' });
    const page = await signedIn();
    await open(page, server, `/profiles/${profile.id}/settings`, 'Settings');
    // Choices come from GET /v1/capabilities: the EU region is listed, not offered, with the server's reason.
    const eu = page.getByRole('radio', { name: 'European Union' });
    expect(await eu.isDisabled()).toBe(true);
    expect(await page.getByText(/Not available here: logs are stored in Canada only/).isVisible()).toBe(true);
    expect(await page.getByRole('radio', { name: 'The name does not exist (NXDOMAIN)' }).isChecked()).toBe(
      true,
    );

    const retention = page.getByRole('textbox', { name: 'Cloud log retention (days)' });
    await retention.fill('400');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const summary = page.getByRole('alert');
    await summary.getByRole('heading', { name: 'Some answers need changing' }).waitFor();
    expect(await retention.getAttribute('aria-invalid')).toBe('true');
    const described = (await retention.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${described.split(' ').at(-1)}"]`).textContent();
    expect(message).toContain('must be an integer from 1 to 90');
    expect((await api.profiles.get(profile.id)).settings.retention_days).toBe(30);

    await retention.fill('14');
    await page.getByRole('radio', { name: 'The block page' }).check();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Settings, renamed');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // Acknowledged in the viewport, where the person is looking after pressing the button.
    await page.getByRole('region', { name: 'Notifications' }).getByText('Saved.', { exact: false }).waitFor();
    const saved = await api.profiles.get(profile.id);
    expect(saved.settings).toMatchObject({ retention_days: 14, block_mode: 'block-page' });
    expect(saved.name).toBe('Settings, renamed');
    await page.reload();
    expect(await page.getByRole('textbox', { name: 'Cloud log retention (days)' }).inputValue()).toBe('14');
    await page.context().close();
  });

  it('edits rules: bulk paste, the API’s message at each wrong line, search and removal', async () => {
    const profile = await api.profiles.create({ name: 'Rules' });
    const page = await signedIn();
    await open(page, server, `/profiles/${profile.id}/rules`, 'Rules');
    const deny = page.getByRole('textbox', { name: 'Add to denied names' });
    // Nothing typed, or only comments: nothing is sent, and the page says what to do.
    await deny.fill('# just a comment\n\n');
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'There is nothing to add' }).waitFor();
    await deny.fill(
      'ads.example.com\nnot a domain!\n# a comment\n\n=exact.example.org\n*.tracker.example.net',
    );
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    const lines = page.getByRole('list', { name: 'Lines to correct in Denied names' });
    await lines.waitFor();
    expect(await lines.getByRole('listitem').count()).toBe(1);
    expect(await lines.textContent()).toContain('Line 2');
    expect(await deny.getAttribute('aria-invalid')).toBe('true');
    expect((await api.profiles.rules.get(profile.id)).deny).toEqual([]);
    // The line's button selects it in the box, which takes the focus, to correct it.
    await lines.getByRole('button', { name: 'Line 2' }).click();
    expect(
      await page.evaluate<string>(
        '(() => { const box = document.activeElement; return box.value.slice(box.selectionStart, box.selectionEnd); })()',
      ),
    ).toBe('not a domain!');
    await deny.fill('ads.example.com\n=exact.example.org\n*.tracker.example.net');
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    await page.getByRole('status').filter({ hasText: 'Added 3 rules' }).waitFor();
    const denied = page.getByRole('list', { name: 'Denied names' });
    expect(await denied.getByRole('listitem').count()).toBe(3);
    // Each rule stands apart from its Remove link, in text and on screen.
    const firstRule = denied.getByRole('listitem').first();
    expect(await firstRule.textContent()).toBe('ads.example.com Remove');
    const ruleBox = await firstRule.locator('code').boundingBox();
    const removeBox = await firstRule.getByRole('button').boundingBox();
    expect((removeBox?.x ?? 0) - ((ruleBox?.x ?? 0) + (ruleBox?.width ?? 0))).toBeGreaterThanOrEqual(16);
    // A rule already there is not "added": the acknowledgement says what the API kept.
    await deny.fill('ads.example.com');
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'ads.example.com was already there; nothing was added.' })
      .waitFor();
    await deny.fill('ads.example.com\n=exact.example.org');
    await page.getByRole('button', { name: 'Add to denied names' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'All 2 rules were already there; nothing was added.' })
      .waitFor();
    expect(await denied.getByRole('listitem').count()).toBe(3);

    await page
      .getByRole('textbox', { name: 'Add to rewrites' })
      .fill('nas.home.example 192.168.1.20\nbad.example 999.1.1.1');
    await page.getByRole('button', { name: 'Add to rewrites' }).click();
    const rewriteLines = page.getByRole('list', { name: 'Lines to correct in Rewrites' });
    await rewriteLines.waitFor();
    expect(await rewriteLines.textContent()).toMatch(/Line 2.*The answer must be an IPv4 address/);
    await page.getByRole('textbox', { name: 'Add to rewrites' }).fill('nas.home.example 192.168.1.20');
    await page.getByRole('button', { name: 'Add to rewrites' }).click();
    await page.getByRole('list', { name: 'Rewrites' }).getByText('nas.home.example → 192.168.1.20').waitFor();

    await page.getByRole('searchbox', { name: 'Search the rules' }).fill('tracker');
    expect(await denied.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove *.tracker.example.net' }).click();
    await page.getByRole('list', { name: 'Denied names' }).waitFor({ state: 'detached' });
    const stored = await api.profiles.rules.get(profile.id);
    expect(stored).toEqual({
      deny: ['ads.example.com', '=exact.example.org'],
      allow: [],
      rewrites: [{ pattern: 'nas.home.example', answer: '192.168.1.20' }],
    });
    await page.context().close();
  });

  it('shows the blocklist catalogue with its licences, and names the setting behind a list', async () => {
    const profile = await api.profiles.create({ name: 'Lists' });
    const catalogue = await api.catalogue.lists();
    const byId = catalogue.lists.find((list) => list.toggle === '');
    const backed = catalogue.lists.find((list) => list.toggle === 'security.threat_intel');
    if (byId === undefined || backed === undefined)
      throw new Error('the catalogue lacks a list of each kind');
    const page = await signedIn();
    await open(page, server, `/profiles/${profile.id}/blocklists`, 'Blocklists');
    await page
      .locator('summary')
      .filter({ hasText: `Sources and licences of ${byId.name}` })
      .click();
    const source = byId.sources[0];
    if (source === undefined) throw new Error('a list without sources');
    expect(await page.getByRole('link', { name: source.licence }).first().getAttribute('href')).toBe(
      source.licence_url,
    );
    // A list behind a setting is not toggled here: it names the setting and links to its page.
    expect(await page.getByRole('switch', { name: backed.name }).count()).toBe(0);
    const backedCard = page.locator('.blocklist').filter({ hasText: backed.description });
    expect(await backedCard.textContent()).toContain(
      'Turned on with “Block threats from intelligence feeds” in',
    );
    await backedCard.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.context().close();
  });

  it('links this network (proven), claims another address (pending, with its proof URL), rotates a DDNS URL, and unlinks', async () => {
    const profile = await api.profiles.create({ name: 'Links' });
    const page = await signedIn('198.51.100.9');
    await open(page, server, `/profiles/${profile.id}/linked-ips`, 'Linked IPs');
    await page.getByRole('textbox', { name: 'IPv4 address' }).fill('300.1.2.3');
    await page.getByRole('button', { name: 'Link this address' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'Some answers need changing' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'IPv4 address' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Link this network' }).click();
    await page.getByRole('status').filter({ hasText: '198.51.100.9 is linked.' }).waitFor();
    await page.getByRole('textbox', { name: 'IPv4 address' }).fill('203.0.113.77');
    await page.getByRole('button', { name: 'Link this address' }).click();
    await page.getByRole('status').filter({ hasText: '203.0.113.77 is claimed but not proven' }).waitFor();
    const proofUrl = (await page.locator('.notice .copyable code').textContent()) ?? '';
    expect(proofUrl).toMatch(new RegExp(`^${server.url}/v1/ddns/`));
    const addresses = page.getByRole('list', { name: 'Linked addresses' });
    await addresses.getByText('203.0.113.77').waitFor();
    await addresses
      .getByRole('listitem')
      .filter({ hasText: '203.0.113.77' })
      .getByText('Pending proof')
      .waitFor();
    expect(
      await addresses
        .getByRole('listitem')
        .filter({ hasText: '198.51.100.9' })
        .getByText('Pending proof')
        .count(),
    ).toBe(0);
    expect(
      Object.fromEntries(
        (await api.profiles.linkedIps.list(profile.id).toArray()).map((link) => [link.ip, link.state]),
      ),
    ).toEqual({ '198.51.100.9': 'active', '203.0.113.77': 'pending' });

    await page.getByRole('button', { name: 'Create a DDNS slot' }).click();
    await page.getByText('Waiting for its first DDNS update').waitFor();
    // The slot's creation is acknowledged as such; the earlier claim's message does not linger beside it.
    await page.getByRole('status').filter({ hasText: 'A DDNS slot is created' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'is claimed but not proven' }).count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: 'is linked.' }).count()).toBe(0);
    // Its title and badge read as two words, not "…first DDNS updateDDNS".
    const slotCard = addresses.getByRole('listitem').filter({ hasText: 'Waiting for its first DDNS update' });
    expect(await slotCard.textContent()).toContain('Waiting for its first DDNS update DDNS');
    await page.getByRole('button', { name: 'Show the DDNS update URL of the empty slot' }).click();
    const first = (await page.locator('.copyable code').first().textContent()) ?? '';
    expect(first).toMatch(new RegExp(`^${server.url}/v1/ddns/`));
    await page.getByRole('button', { name: 'Rotate the DDNS update URL of the empty slot' }).click();
    await page.getByRole('button', { name: 'Replace the URL' }).click();
    await page.getByRole('status').filter({ hasText: 'the old one stopped working' }).waitFor();
    const second = (await page.locator('.copyable code').first().textContent()) ?? '';
    expect(second).not.toBe(first);
    const links = await api.profiles.linkedIps.list(profile.id).toArray();
    const slot = links.find((link) => link.ddns);
    expect((await api.profiles.linkedIps.ddnsUrl(profile.id, slot?.id ?? '')).update_url).toBe(second);

    await page.getByRole('button', { name: 'Unlink 203.0.113.77' }).click();
    await page.getByText('203.0.113.77', { exact: true }).waitFor({ state: 'detached' });
    expect((await api.profiles.linkedIps.list(profile.id).toArray()).map((link) => link.ip).sort()).toEqual([
      '198.51.100.9',
      null,
    ]);
    await page.context().close();
  });

  it('renames, classifies, annotates and forgets devices the resolvers have seen', async () => {
    const profile = await api.profiles.create({ name: 'Devices' });
    await simulateTraffic(server, profile.id, { queries: 200, days: 1, devices: 2, seed: 3 });
    const [device] = await api.profiles.devices.list(profile.id).toArray();
    if (device === undefined) throw new Error('the simulation saw no device');
    const page = await signedIn();
    await open(page, server, `/profiles/${profile.id}/devices`, 'Devices');
    const cards = page.getByRole('list', { name: 'Devices' });
    const card = cards.getByRole('listitem', { name: device.label });
    await card.waitFor();
    expect(await cards.getByRole('listitem').count()).toBe(2);
    await card.getByRole('button', { name: `Edit ${device.label}` }).click();
    await card.getByRole('textbox', { name: 'Notes' }).fill('x'.repeat(1001));
    await card.getByRole('button', { name: 'Save device' }).click();
    await card.getByRole('alert').waitFor();
    expect(await card.getByRole('textbox', { name: 'Notes' }).getAttribute('aria-invalid')).toBe('true');
    await card.getByRole('textbox', { name: 'Name shown' }).fill('Ana’s phone');
    await card.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Phone' });
    await card.getByRole('textbox', { name: 'Notes' }).fill('Bedtime at 21:00');
    await card.getByRole('button', { name: 'Save device' }).click();
    const renamed = cards.getByRole('listitem', { name: 'Ana’s phone' });
    await renamed.getByText('Bedtime at 21:00').waitFor();
    expect(await api.profiles.devices.get(profile.id, device.id)).toMatchObject({
      display_name: 'Ana’s phone',
      kind: 'phone',
      notes: 'Bedtime at 21:00',
    });

    await renamed.getByRole('link', { name: 'Logs of Ana’s phone' }).click();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    expect(new URL(page.url()).searchParams.getAll('device')).toEqual([device.id]);
    await page.goBack();
    await cards.getByRole('button', { name: 'Forget Ana’s phone' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, forget Ana’s phone' }).click();
    await cards.getByRole('listitem', { name: 'Ana’s phone' }).waitFor({ state: 'detached' });
    expect((await api.profiles.devices.list(profile.id).toArray()).map((each) => each.id)).not.toContain(
      device.id,
    );
    await page.context().close();
  }, 90_000);

  it('deletes a profile after confirmation', async () => {
    const profile = await api.profiles.create({ name: 'Doomed' });
    const page = await signedIn();
    await open(page, server, `/profiles/${profile.id}/settings`, 'Settings');
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('button', { name: 'Yes, delete Doomed' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile Doomed is deleted.' }).waitFor();
    expect((await api.profiles.list().toArray()).some((each) => each.id === profile.id)).toBe(false);
    await page.context().close();
  });

  it('answers another organisation’s profile as not found, never showing it', async () => {
    const stranger = await signedInClient(server, await verifiedAccount(server, newEmail('stranger')));
    const theirs = await stranger.profiles.create({ name: 'Not yours' });
    const page = await signedIn();
    await page.goto(`${server.url}/profiles/${theirs.id}/rules`);
    await page.getByRole('alert').getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.getByText('Not yours').count()).toBe(0);
    await page.context().close();
  });
});
