import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../../support/cli-process.js';
import { browserSkipReason, flipSwitch, settled } from '../../support/dashboard-browser.js';
import { open, simulateTraffic } from '../../support/dashboard-data.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

/**
 * The catalogues on the profile pages as a person sees them (issue 36): parental services as a grid with their
 * logos and state, blocklists with their entries and freshness, and no internal name on screen.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: profile catalogues', () => {
  const dashboard = signedInDashboard('catalogues');

  const signedIn = async (): Promise<Page> => (await dashboard.signedInPage()).page;

  /** The card of service `name` in the grid. */
  const card = (page: Page, name: string) =>
    page
      .getByRole('list', { name: 'Block these services' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('switch', { name, exact: true }) });

  it('shows parental services as a grid with logos or letter marks, and whether each is blocked and why', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Grid' });
    await dashboard.api.profiles.update(profile.id, {
      parental: { categories: ['video-streaming'], services: ['tiktok'] },
    });
    const services = await dashboard.api.catalogue.parentalServices({ limit: 200 }).toArray();
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/parental`, 'Parental controls');
    const grid = page.getByRole('list', { name: 'Block these services' });
    await grid.waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(services.length);

    // A brand Simple Icons carries shows its logo; one it does not shows the first letter of its name.
    expect(await card(page, 'YouTube').locator('[data-mark="logo"] svg path').count()).toBe(1);
    const hulu = card(page, 'Hulu').locator('[data-mark="letter"]');
    expect(await hulu.textContent()).toBe('H');
    expect(await hulu.getAttribute('aria-hidden')).toBe('true');

    // Its state, read with the switch: by itself, through a category named as people know it, or allowed.
    const tiktok = page.getByRole('switch', { name: 'TikTok', exact: true });
    expect(await tiktok.isChecked()).toBe(true);
    expect(await card(page, 'TikTok').textContent()).toContain('Blocked');
    const youtube = page.getByRole('switch', { name: 'YouTube', exact: true });
    expect(await youtube.isChecked()).toBe(false);
    const described = (await youtube.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(
      'Blocked by category: Video streaming',
    );
    expect(await card(page, 'Spotify').textContent()).toContain('Allowed');
    expect(await page.getByRole('switch', { name: 'Video streaming' }).isChecked()).toBe(true);

    // Unblocking the category is applied at once, and the services it blocked say they are allowed.
    await flipSwitch(page.getByRole('switch', { name: 'Video streaming' }));
    await card(page, 'YouTube').getByText('Allowed').waitFor();
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByText('Video streaming: allowed.')
      .waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).parental.categories).toEqual([]);

    // The search finds a service by name or by the name of its category.
    const search = page.getByRole('searchbox', { name: 'Find a service' });
    await search.fill('tiktok');
    await page.getByText(`1 of ${services.length} services match`).waitFor();
    await search.fill('Dating');
    const dating = services.filter((service) => service.categories.includes('dating'));
    await page.getByText(`${dating.length} of ${services.length} services match`).waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(dating.length);
    await page.context().close();
  });

  it('shows each blocklist’s entries, last update and download state, and says when a list was never built', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Fresh' });
    const catalogue = await dashboard.api.catalogue.lists();
    const [built, empty] = catalogue.lists.filter((list) => list.toggle === '');
    if (built === undefined || empty === undefined) throw new Error('the catalogue lacks two lists by id');
    const file = join(mkdtempSync(join(tmpdir(), 'svc-list-')), 'list.txt');
    writeFileSync(file, 'ads.example.com\ntracker.example.net\nbanner.example.org\n');
    const imported = await runSvc(
      [
        'lists',
        'import',
        file,
        '--list',
        String(built.id),
        '--format',
        'domains',
        '--data-dir',
        dashboard.server.dataDir,
      ],
      dashboard.server.env,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const stored = (await dashboard.api.catalogue.lists()).lists.find((list) => list.id === built.id);
    expect(stored?.built_at).not.toBeNull();

    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/blocklists`, 'Blocklists');
    const cardOf = (name: string) =>
      page.locator('.blocklist').filter({ has: page.getByRole('switch', { name, exact: true }) });
    const facts = cardOf(built.name);
    await facts.locator('dl').waitFor();
    expect(await facts.locator('dt').allTextContents()).toEqual(['Entries', 'Last update', 'Last download']);
    expect(await facts.locator('dd').first().textContent()).toBe(String(stored?.entries));
    expect(await facts.locator('time').getAttribute('datetime')).toBe(stored?.built_at);
    // Imported by hand, never downloaded: said as such, not as a date.
    expect(await facts.locator('dd').last().textContent()).toBe('Not downloaded yet');
    // A list never built says it blocks nothing yet, rather than "0 entries".
    const never = cardOf(empty.name);
    expect(await never.textContent()).toContain('this list blocks nothing until');
    expect(await never.locator('dt').count()).toBe(0);
    await page.context().close();
  });

  it('shows no internal name on the profile pages: setting keys, linked_ip, category slugs, added = prefixes', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Words' });
    await dashboard.api.profiles.update(profile.id, {
      security: { threat_intel: true },
      parental: { categories: ['video-streaming', 'social-networks'], services: ['youtube'] },
    });
    await dashboard.api.profiles.rules.replace(profile.id, {
      deny: ['ads.example.com'],
      allow: [],
      rewrites: [],
    });
    await simulateTraffic(dashboard.server, profile.id, { queries: 50, days: 1, devices: 1, seed: 5 });
    const categories = (await dashboard.api.catalogue.parentalCategories()).categories.map(
      (category) => category.id,
    );
    const slugs = categories.filter((id) => id.includes('-'));
    expect(slugs.length).toBeGreaterThan(0);
    const page = await signedIn();
    const sections = [
      '',
      '/security',
      '/parental',
      '/settings',
      '/rules',
      '/blocklists',
      '/linked-ips',
      '/devices',
    ];
    const found: Record<string, string[]> = {};
    for (const section of sections) {
      await page.goto(`${dashboard.server.url}/profiles/${profile.id}${section}`);
      await settled(page);
      for (const details of await page.locator('details').all())
        await details.evaluate((node) => node.setAttribute('open', ''));
      // The rules page teaches the syntax people type (`=example.com`): its help is the one place `=` belongs.
      const text = await page.evaluate<string>(`(() => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll('.rule-syntax, code.example').forEach((node) => node.remove());
        return body.innerText;
      })()`);
      const tokens = [
        ...(text.match(/\b(?:security|parental|settings)\.[a-z_]+(?::[a-z0-9-]+)?/g) ?? []),
        ...(text.match(/\blinked_ips?\b/g) ?? []),
        ...slugs.filter((slug) => text.includes(slug)),
        ...(text.match(/(?:^|\s)=[a-z0-9*]/gm) ?? []),
      ];
      if (tokens.length > 0) found[section === '' ? 'overview' : section] = tokens;
    }
    expect(found).toEqual({});
    await page.context().close();
  }, 120_000);
});
