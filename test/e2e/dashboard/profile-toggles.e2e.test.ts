import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSkipReason, flipSwitch } from '../../support/dashboard-browser.js';
import { open } from '../../support/dashboard-data.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

/**
 * Toggles that apply at once (issue 36): the page changes immediately, the write follows with If-Match, the
 * outcome is announced in the viewport with the focus left on the control, and a refused write is undone and
 * explained.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: profile toggles', () => {
  const dashboard = signedInDashboard('toggles');

  const signedIn = async (): Promise<Page> => (await dashboard.signedInPage()).page;

  /** The notices shown in the viewport (successes, information and errors alike). */
  const notices = (page: Page) => page.getByRole('region', { name: 'Notifications' });

  /** The writes of profile `id` the page sends, with their If-Match, and the statuses they were answered. */
  function recordWrites(page: Page, id: string) {
    const writes: { method: string; ifMatch: string | undefined; status?: number }[] = [];
    const mine = (request: Request) =>
      ['PATCH', 'PUT'].includes(request.method()) &&
      new URL(request.url()).pathname.startsWith(`/v1/profiles/${id}`);
    page.on('request', (request) => {
      if (mine(request)) writes.push({ method: request.method(), ifMatch: request.headers()['if-match'] });
    });
    page.on('response', (response) => {
      const write = writes.find((each) => each.status === undefined);
      if (mine(response.request()) && write !== undefined) write.status = response.status();
    });
    return writes;
  }

  it('applies a security toggle at once, stores it with If-Match, and leaves the focus on it', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Instant' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/security`, 'Security');
    const writes = recordWrites(page, profile.id);
    const nrd = page.getByRole('switch', { name: 'Block newly registered domains' });
    expect(await nrd.isChecked()).toBe(false);
    // No Save button: the switch is the action.
    expect(await page.getByRole('button', { name: /^Save/ }).count()).toBe(0);
    // The API's answer is held back: the switch must show the change before it comes.
    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(`**/v1/profiles/${profile.id}`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await nrd.focus();
    await page.keyboard.press('Space');
    await page.getByRole('switch', { name: 'Block newly registered domains', checked: true }).waitFor();
    expect(writes).toEqual([{ method: 'PATCH', ifMatch: `"${profile.version}"` }]);
    answer();
    await notices(page).getByText('Block newly registered domains: on.').waitFor();
    expect(await nrd.evaluate((control) => control.ownerDocument.activeElement === control)).toBe(true);
    expect((await dashboard.api.profiles.get(profile.id)).security.nrd).toBe(true);
    expect(writes).toEqual([{ method: 'PATCH', ifMatch: `"${profile.version}"`, status: 200 }]);

    // Still on after a reload: the page shows what is stored.
    await page.reload();
    expect(await page.getByRole('switch', { name: 'Block newly registered domains' }).isChecked()).toBe(true);
    await page.context().close();
  });

  it('sends rapid clicks one write at a time, each with the version the previous answer gave; the last intent wins', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Rapid' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/security`, 'Security');
    const writes = recordWrites(page, profile.id);
    const dga = page.getByRole('switch', { name: 'Block algorithm-generated names' });
    const csam = page.getByRole('switch', { name: 'Block child sexual abuse material' });
    const startDga = await dga.isChecked();
    // Five clicks on one switch and one on another, as fast as the browser takes them.
    for (let click = 0; click < 5; click += 1) await flipSwitch(dga, { delay: 0 });
    await flipSwitch(csam, { delay: 0 });
    await expect
      .poll(async () => writes.length > 0 && writes.every((write) => write.status !== undefined), {
        timeout: 10_000,
      })
      .toBe(true);
    await page.waitForLoadState('networkidle');
    const stored = await dashboard.api.profiles.get(profile.id);
    expect(stored.security.dga).toBe(!startDga);
    expect(stored.security.csam).toBe(!profile.security.csam);
    expect(await dga.isChecked()).toBe(!startDga);
    // Every write was accepted, and no If-Match was sent twice: each is the version the last answer gave.
    expect(writes.every((write) => write.status === 200)).toBe(true);
    const versions = writes.map((write) => write.ifMatch);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions[0]).toBe(`"${profile.version}"`);
    expect(stored.version).toBe(profile.version + writes.length);
    expect(await notices(page).getByRole('listitem').filter({ hasText: 'was not changed' }).count()).toBe(0);
    await page.context().close();
  });

  it('undoes a toggle the API refuses because the profile changed elsewhere (412), and says so', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Elsewhere' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/security`, 'Security');
    // Another tab or device changes the profile while this page shows the old version.
    await dashboard.api.profiles.update(profile.id, { security: { typosquat: true } });
    const nrd = page.getByRole('switch', { name: 'Block newly registered domains' });
    await flipSwitch(nrd);
    await notices(page)
      .getByText(
        'Block newly registered domains was not changed: Someone changed this profile in another tab',
      )
      .waitFor();
    // Rolled back, and refreshed with what was stored meanwhile.
    expect(await nrd.isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Block typo-squatting' }).and(page.locator(':checked')).waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).security).toMatchObject({
      nrd: false,
      typosquat: true,
    });
    // The next click writes against the version now shown, and is stored.
    await flipSwitch(nrd);
    await notices(page).getByText('Block newly registered domains: on.').waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).security.nrd).toBe(true);
    await page.context().close();
  });

  it('undoes a parental switch the API refuses (422) and gives its reason', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Refused' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/parental`, 'Parental controls');
    // A confused or tampering client: the write that leaves the page names a service the catalogue lacks.
    await page.route(`**/v1/profiles/${profile.id}`, async (route) => {
      const body = route.request().postData();
      if (route.request().method() !== 'PATCH' || body === null) return route.continue();
      return route.continue({ postData: body.replace('"tiktok"', '"no-such-service"') });
    });
    const tiktok = page.getByRole('switch', { name: 'TikTok' });
    // A click, not check(): the refusal may undo the change before a check() could see it.
    await flipSwitch(tiktok);
    await notices(page)
      .getByText(/^TikTok was not changed: the service refused it \(is not a service of/)
      .waitFor();
    expect(await tiktok.isChecked()).toBe(false);
    expect((await dashboard.api.profiles.get(profile.id)).parental.services).toEqual([]);
    await page.unroute(`**/v1/profiles/${profile.id}`);
    // Without the tampering, the same switch works.
    await flipSwitch(tiktok);
    await notices(page).getByText('TikTok: blocked.').waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).parental.services).toEqual(['tiktok']);
    await page.context().close();
  });

  it('turns a blocklist on at once and undoes one the API refuses (422 unknown list)', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Listed' });
    const catalogue = await dashboard.api.catalogue.lists();
    const [first, second] = catalogue.lists.filter((list) => list.toggle === '');
    if (first === undefined || second === undefined) throw new Error('the catalogue lacks two lists by id');
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/blocklists`, 'Blocklists');
    await flipSwitch(page.getByRole('switch', { name: first.name }));
    await notices(page).getByText(`${first.name}: on.`).waitFor();
    expect(await dashboard.api.profiles.lists.get(profile.id)).toEqual([first.id]);

    await page.route(`**/v1/profiles/${profile.id}/lists`, (route) =>
      route.request().method() === 'PUT'
        ? route.continue({ postData: JSON.stringify({ lists: [first.id, second.id, 65_000] }) })
        : route.continue(),
    );
    const box = page.getByRole('switch', { name: second.name });
    await flipSwitch(box);
    await notices(page)
      .getByText(new RegExp(`^${second.name} was not changed: `))
      .waitFor();
    expect(await box.isChecked()).toBe(false);
    expect(await dashboard.api.profiles.lists.get(profile.id)).toEqual([first.id]);
    await page.context().close();
  });

  it('switches a setting at once while the form keeps what was typed but not yet saved', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Mixed' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/settings`, 'Settings');
    const retention = page.getByRole('textbox', { name: 'Cloud log retention (days)' });
    await retention.fill('21');
    const uncloak = page.getByRole('switch', { name: 'Apply rules to CNAME targets' });
    const was = await uncloak.isChecked();
    await flipSwitch(uncloak);
    await notices(page)
      .getByText(`Apply rules to CNAME targets: ${was ? 'off' : 'on'}.`)
      .waitFor();
    expect(await retention.inputValue()).toBe('21');
    expect((await dashboard.api.profiles.get(profile.id)).settings.cname_uncloak).toBe(!was);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notices(page).getByText('Saved.', { exact: false }).first().waitFor();
    expect((await dashboard.api.profiles.get(profile.id)).settings).toMatchObject({
      retention_days: 21,
      cname_uncloak: !was,
    });
    await page.context().close();
  });
  it('settings form meets a 412 (changed through the SDK meanwhile): says what was not saved, shows the fresh values', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Shared' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/settings`, 'Settings');
    const retention = page.getByRole('textbox', { name: 'Cloud log retention (days)' });
    await retention.fill('21');
    // Another client (a script, another browser) changes the profile while the form is being filled in.
    await dashboard.api.profiles.update(profile.id, {
      name: 'Shared by script',
      settings: { retention_days: 45 },
    });
    await page.getByRole('button', { name: 'Save settings' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Someone else changed this meanwhile' });
    await problem.waitFor();
    // What was typed is named with what is stored now: nothing is dropped without a word.
    await problem
      .getByText('Cloud log retention (days): you entered “21”; stored now: “45”.', { exact: true })
      .waitFor();
    expect(await problem.getByRole('listitem').count()).toBe(1);
    await problem.getByText('The form now shows what is stored.', { exact: false }).waitFor();
    // The form shows the fresh values, read again without a reload.
    await expect.poll(() => retention.inputValue()).toBe('45');
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Shared by script');
    expect((await dashboard.api.profiles.get(profile.id)).settings.retention_days).toBe(45);

    // Saving again now writes over the version shown, and is stored.
    await retention.fill('21');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notices(page).getByText('Saved.', { exact: false }).first().waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Someone else changed' }).count()).toBe(0);
    expect(await dashboard.api.profiles.get(profile.id)).toMatchObject({
      name: 'Shared by script',
      settings: { retention_days: 21 },
    });
    await page.context().close();
  });

  it('settings form meets a 412 caused by a switch elsewhere: the typed change stays in the form to save again', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Kept' });
    const page = await signedIn();
    await open(page, dashboard.server, `/profiles/${profile.id}/settings`, 'Settings');
    const retention = page.getByRole('textbox', { name: 'Cloud log retention (days)' });
    await retention.fill('14');
    await dashboard.api.profiles.update(profile.id, { security: { nrd: true } });
    await page.getByRole('button', { name: 'Save settings' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Someone else changed this meanwhile' });
    await problem.getByText('Cloud log retention (days): you entered “14”; stored now: “30”.').waitFor();
    await problem.getByText('Your changes are still in the form: save again to store them.').waitFor();
    expect(await retention.inputValue()).toBe('14');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notices(page).getByText('Saved.', { exact: false }).first().waitFor();
    expect(await dashboard.api.profiles.get(profile.id)).toMatchObject({
      security: { nrd: true },
      settings: { retention_days: 14 },
    });
    await page.context().close();
  });
});
