import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  localhostUrl,
  newEmail,
  newPage,
  PASSWORD,
  signIn,
  signOut,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';

/** The customer's first minutes, in Chromium: sign up, verify from the email, sign in and out, reset a password. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: signing up, in and out',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 90_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([
        startDashboardServer({ SVC_SIGNUP_MODE: 'open' }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    async function fresh(): Promise<Page> {
      const { page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      return page;
    }

    it('shows the sign-in page at / to a visitor', async () => {
      const page = await fresh();
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.title()).toBe('Sign in · svc');
      await page.getByLabel('Email address', { exact: true }).waitFor();
      await page.getByLabel('Password', { exact: true }).waitFor();
      await page.context().close();
    });

    it('signs up in open mode, verifies from the emailed link, signs in and out', async () => {
      const page = await fresh();
      const email = newEmail('signup');
      await page.goto(`${server.url}/signup`);
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();

      const link = await server.linkFromEmail(email, /\/verify-email\?token=ver_/);
      await page.goto(link);
      const verified = page.getByRole('status');
      await verified.getByText('is verified').waitFor();
      expect(await verified.textContent()).toContain(email);

      await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await navigation.getByRole('link', { name: 'Profiles' }).waitFor();

      // The session survives a reload: the cookie is the browser's, HttpOnly, and the page asks the API who it is.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
      // The emailed link led to the dashboard under localhost (where passkeys work): the session is there.
      const cookies = await page.context().cookies(localhostUrl(server));
      expect(cookies.find((cookie) => cookie.name === 'svc_session')?.httpOnly).toBe(true);

      await signOut(page);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.getByRole('status').getByText('You are signed out.').waitFor();
      // Signed out means signed out: a signed-in page sends the visitor back to sign in.
      await page.goto(`${server.url}/profiles`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/profiles');
      await page.context().close();
    });

    it('says a used verification link was used, and offers to sign in', async () => {
      const page = await fresh();
      const email = newEmail('reused');
      await server.client().auth.signup({ email, password: PASSWORD });
      const link = await server.linkFromEmail(email, /\/verify-email\?token=ver_/);
      await page.goto(link);
      await page.getByRole('status').getByText('is verified').waitFor();
      await page.goto(link);
      await page.getByRole('heading', { name: 'This link was already used' }).waitFor();
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
      await page.context().close();
    });

    it('shows a wrong password as a problem in words, and a short password at its field', async () => {
      const email = await verifiedAccount(server, newEmail('wrong'));
      const page = await fresh();
      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not the password at all');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const problem = page.getByRole('alert');
      await problem.getByRole('heading', { name: 'Email address or password is wrong' }).waitFor();
      expect(await problem.textContent()).not.toContain('{');
      expect(await problem.textContent()).toContain('Reference:');

      await page.goto(`${server.url}/signup`);
      await page.getByLabel('Email address', { exact: true }).fill(newEmail('short'));
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'The password is too short' }).waitFor();
      // The message sits at the field, tied to it for screen readers, and the field says it is invalid.
      const field = page.getByRole('textbox', { name: 'Password' });
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      // Its accessible description, as a screen reader computes it from aria-describedby.
      const description = await page.evaluate<string>(
        "[...document.querySelector('input[aria-invalid=true]').getAttribute('aria-describedby').split(' ')].map((id) => document.getElementById(id).textContent).join(' ')",
      );
      expect(description).toMatch(/Password .*12/);
      // The summary's entry links to the field.
      await page
        .getByRole('alert')
        .getByRole('link', { name: /Password/ })
        .click();
      expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('name') ?? null")).toBe(
        'password',
      );
      await page.context().close();
    });

    it('resets a forgotten password from the emailed link; the old one stops working', async () => {
      const email = await verifiedAccount(server, newEmail('reset'));
      const page = await fresh();
      await page.goto(`${server.url}/login`);
      await page.getByRole('link', { name: 'Forgotten your password?' }).click();
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();

      const link = await server.linkFromEmail(email, /\/reset-password\?token=rst_/);
      await page.goto(link);
      const newPassword = 'a brand new passphrase for svc';
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('heading', { name: 'Your password is changed' }).waitFor();

      // The link is single use.
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('yet another passphrase here');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').getByRole('link', { name: 'Ask for a new link' }).waitFor();

      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Email address or password is wrong' }).waitFor();
      // The wrong password earns the address its first delay on the sign-in ladder (spec 5.2.3).
      await page.waitForTimeout(1_100);
      await signIn(page, server, email, newPassword);
      await page.context().close();
    });

    it('returns to the page asked for after sign-in, but never to another site', async () => {
      const email = await verifiedAccount(server, newEmail('next'));
      const page = await fresh();
      await page.goto(`${server.url}/feedback`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Send feedback' }).waitFor();

      const other = await fresh();
      await other.goto(`${server.url}/login?next=${encodeURIComponent('//evil.example/phish')}`);
      await other.getByLabel('Email address', { exact: true }).fill(email);
      await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await other.getByRole('button', { name: 'Sign in', exact: true }).click();
      await other.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
      expect(new URL(other.url()).origin).toBe(server.url);
      await page.context().close();
      await other.context().close();
    });
  },
);
