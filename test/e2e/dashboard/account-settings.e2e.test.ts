import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  PASSWORD,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';
import { send } from '../../support/http.js';

/** The account area in Chromium: sessions, API tokens, preferences, audit log, data export, deletion. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: the account area',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 90_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startDashboardServer(), launchBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    async function signedIn(email: string): Promise<Page> {
      const { context, page } = await newPage(browser);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      page.setDefaultTimeout(15_000);
      await signIn(page, server, email);
      return page;
    }

    it('lists the sessions and ends another one, which is then signed out', async () => {
      const email = await verifiedAccount(server, newEmail('sessions'));
      const laptop = await signedIn(email);
      const phone = await signedIn(email);
      await laptop.goto(`${server.url}/account/security`);
      const sessions = laptop.getByRole('table', { name: 'Sessions' });
      await sessions.getByText('this session').waitFor();
      expect(await sessions.getByRole('row').count()).toBe(3);
      await sessions.getByRole('button', { name: /^End session/ }).click();
      await laptop.getByRole('alertdialog').getByRole('button', { name: 'Yes, end this session' }).click();
      await expect.poll(() => sessions.getByRole('row').count()).toBe(2);

      await phone.goto(`${server.url}/account`);
      await phone.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await laptop.context().close();
      await phone.context().close();
    });

    it('creates an API token with scopes, shows its secret once with a copy button, and revokes it', async () => {
      const email = await verifiedAccount(server, newEmail('tokens'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account/tokens`);
      // No scope chosen: the API's message is shown at the scopes.
      await page.getByLabel('Token name', { exact: true }).fill('Home Assistant');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page
        .getByRole('group', { name: 'Scopes' })
        .getByText('Scopes must name at least one scope')
        .waitFor();

      await page.getByRole('checkbox', { name: /profiles:read/ }).check();
      await page.getByRole('checkbox', { name: /logs:read/ }).check();
      // Operators only: an ordinary account is not offered the admin scope.
      expect(await page.getByRole('checkbox', { name: /admin/ }).count()).toBe(0);
      await page.getByRole('button', { name: 'Create token' }).click();
      const secretField = page.getByLabel('Token secret', { exact: true });
      const secret = await secretField.inputValue();
      expect(secret).toMatch(/^svc_[A-Za-z0-9_-]{52}$/);
      // The form is emptied once the token exists: a filled-in form invites a second, duplicate token.
      expect(await page.getByLabel('Token name', { exact: true }).inputValue()).toBe('');
      expect(await page.getByRole('checkbox', { name: /profiles:read/ }).isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Copy the token' }).click();
      await page.getByRole('status').getByText('Copied').waitFor();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);

      // The secret works, with its scopes only.
      const profiles = await send(`${server.url}/v1/profiles`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(profiles.status).toBe(200);
      const tokens = await send(`${server.url}/v1/tokens`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(tokens.status).toBe(403);

      // Shown once: after a reload only its prefix remains.
      await page.reload();
      const table = page.getByRole('table', { name: 'API tokens' });
      await table.getByText('Home Assistant').waitFor();
      expect(await page.content()).not.toContain(secret);
      await table.getByRole('button', { name: 'Revoke Home Assistant' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, revoke Home Assistant' }).click();
      await page.getByText('You have no API token.').waitFor();
      const after = await send(`${server.url}/v1/profiles`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(after.status).toBe(401);
      await page.context().close();
    });

    it('asks to confirm the password when the API wants a recent sign-in, then repeats the action', async () => {
      const email = await verifiedAccount(server, newEmail('reauth'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account/tokens`);
      // The API refuses the first attempt as stale (spec 5.5 rule 2); the next goes through.
      let refused = false;
      await page.route('**/v1/tokens', async (route) => {
        if (route.request().method() === 'POST' && !refused) {
          refused = true;
          await route.fulfill({
            status: 403,
            contentType: 'application/problem+json',
            body: JSON.stringify({
              type: `${server.url}/problems/reauth_required`,
              title: 'Forbidden',
              status: 403,
              code: 'reauth_required',
              detail: 'This change needs a sign-in within the last five minutes.',
              request_id: 'test-request',
            }),
          });
        } else await route.continue();
      });
      await page.getByLabel('Token name', { exact: true }).fill('CI');
      await page.getByRole('checkbox', { name: /account:read/ }).check();
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByRole('heading', { name: 'Confirm it is you' }).first().waitFor();
      // Issue 36: a question, not an error: a neutral panel, no alert, no reference of the refused request.
      await page.getByRole('region', { name: 'Confirm it is you' }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.getByText('test-request').count()).toBe(0);
      await page.getByLabel('Your password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      expect(await page.getByLabel('Token secret', { exact: true }).inputValue()).toMatch(/^svc_/);
      // Confirming in place refreshed this browser's session instead of opening a second one beside it.
      await page.goto(`${server.url}/account/security`);
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await sessions.getByText('this session').waitFor();
      expect(await sessions.getByRole('row').count()).toBe(2);
      await page.context().close();
    });

    it('counts down a rate limit before offering to try again', async () => {
      const email = await verifiedAccount(server, newEmail('limited'));
      const page = await signedIn(email);
      await page.route('**/v1/auth/recovery-codes', (route) =>
        route.fulfill({
          status: 429,
          headers: { 'retry-after': '3', 'content-type': 'application/problem+json' },
          body: JSON.stringify({
            title: 'Too Many Requests',
            status: 429,
            code: 'rate_limited',
            retry_after: 3,
          }),
        }),
      );
      await page.goto(`${server.url}/account/security`);
      const problem = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
      await problem.getByText(/You can try again in [1-3] seconds?\./).waitFor();
      expect(await problem.getByRole('button', { name: 'Try again' }).isDisabled()).toBe(true);
      await expect
        .poll(() => problem.getByRole('button', { name: 'Try again' }).isEnabled(), { timeout: 10_000 })
        .toBe(true);
      await page.context().close();
    });

    it('keeps the email alert preference', async () => {
      const email = await verifiedAccount(server, newEmail('prefs'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account`);
      const alert = page.getByRole('checkbox', { name: /self-hosted node goes offline/ });
      const before = await alert.isChecked();
      await alert.click();
      await page.getByRole('status').getByText('Saved.').waitFor();
      await page.reload();
      await page.getByRole('checkbox', { name: /self-hosted node goes offline/ }).waitFor();
      expect(await page.getByRole('checkbox', { name: /self-hosted node goes offline/ }).isChecked()).toBe(
        !before,
      );
      await page.context().close();
    });

    it('shows the audit log of what the account did, in words and by email, never by raw ids', async () => {
      const email = await verifiedAccount(server, newEmail('audit'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account`);
      await page.getByRole('checkbox', { name: /self-hosted node goes offline/ }).click();
      await page.getByRole('status').getByText('Saved.').waitFor();
      await page
        .getByRole('navigation', { name: 'Account' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      const entries = page.getByRole('table', { name: 'Audit entries' });
      const saved = entries.getByRole('row').filter({ hasText: 'Preferences changed' });
      await saved.waitFor();
      // Issue 36: the actor is the account's email, not `account:<uuid>`; the action in words, not its code.
      await saved.getByRole('cell', { name: email, exact: true }).waitFor();
      const text = (await entries.textContent()) ?? '';
      expect(text).not.toMatch(/\b(account|token):[0-9a-f-]{36}/);
      expect(text).not.toContain('account.preferences_updated');
      await page.context().close();
    });

    it('exports the account data and downloads it', async () => {
      const email = await verifiedAccount(server, newEmail('export'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account`);
      await page.getByRole('button', { name: 'Export my data' }).click();
      const exports = page.getByRole('table', { name: 'Exports' });
      const download = exports.getByRole('button', { name: /^Download the export of/ });
      await download.waitFor({ timeout: 60_000 });
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^svc-export-\d{4}-\d{2}-\d{2}\.jsonl$/);
      const text = readFileSync((await file.path()) ?? '', 'utf8');
      expect(text).toContain(email);
      await page.context().close();
    });

    it('deletes the account with its cooling-off date shown, and undeletes it', async () => {
      const email = await verifiedAccount(server, newEmail('delete'));
      const page = await signedIn(email);
      await page.goto(`${server.url}/account`);
      const remove = page.getByRole('button', { name: 'Delete my account' });
      // Nothing happens by accident: the button waits for the confirmation.
      expect(await remove.isDisabled()).toBe(true);
      await page.getByRole('checkbox', { name: /I understand/ }).check();
      await remove.click();
      // Asking revokes every session, this one too: the sign-in page says when the account goes, and how to cancel.
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      const notice = page.getByRole('status').filter({ hasText: 'Your account will be deleted on' });
      const due = await notice.getByRole('time').getAttribute('datetime');
      const days = (Date.parse(due ?? '') - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThan(14.1);
      await page.goto(`${server.url}/account`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

      // Signing in again leads to the account page, where the deletion can be cancelled.
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const pending = page.getByRole('region', { name: 'Your account is being deleted' });
      await pending.waitFor();
      // Asked on …, erased on …: the second date is the end of the cooling-off.
      expect(await pending.getByRole('time').nth(1).getAttribute('datetime')).toBe(due);
      await pending.getByRole('button', { name: 'Cancel the deletion' }).click();
      await page.getByRole('region', { name: 'Delete your account' }).waitFor();
      const account = await server.client().auth.login({ email, password: PASSWORD });
      expect(account.deletion_requested_at).toBeNull();
      await page.context().close();
    });

    it('shows the tokens and the sessions as cards on a phone: no header row, cells stacked, nothing sideways', async () => {
      const email = await verifiedAccount(server, newEmail('phone-tables'));
      const client = server.client();
      await client.auth.login({ email, password: PASSWORD });
      await client.tokens.create({
        name: 'A token with a fairly long name for a phone',
        scopes: ['logs:read'],
      });
      const { page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
      page.setDefaultTimeout(15_000);
      await signIn(page, server, email);
      for (const [path, name] of [
        ['/account/tokens', 'API tokens'],
        ['/account/security', 'Sessions'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        const table = page.getByRole('table', { name });
        // The header row is hidden on a phone, so the first row the browser exposes is the first item.
        const row = table.getByRole('row').first();
        await row.waitFor();
        // Each cell in the card's one column, labelled by its column's name since the header row is hidden.
        const lefts = await row
          .getByRole('cell')
          .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().left)));
        expect(new Set(lefts).size, path).toBe(1);
        expect(await table.getByRole('columnheader').count(), path).toBe(0);
        expect(await row.getByRole('cell').first().getAttribute('data-label'), path).not.toBeNull();
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow, path).toBe(0);
      }
      await page.context().close();
    });
  },
);
