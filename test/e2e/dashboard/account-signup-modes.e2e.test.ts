import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, svcBuilt } from '../../support/cli-process.js';
import {
  browserSkipReason,
  type DashboardServer,
  launchBrowser,
  localhostUrl,
  newEmail,
  newPage,
  PASSWORD,
  startDashboardServer,
} from '../../support/dashboard-browser.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/** Fills and sends the sign-up form. */
async function signUp(page: Page, server: DashboardServer, email: string, invite?: string): Promise<void> {
  await page.goto(`${server.url}/signup`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  if (invite !== undefined) await page.getByLabel('Invite code', { exact: true }).fill(invite);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Joins the waitlist from the sign-up page and confirms from the emailed link. */
async function joinWaitlist(page: Page, server: DashboardServer, email: string): Promise<void> {
  await page.getByLabel('Email address for the waitlist', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const link = await server.linkFromEmail(email, /\/waitlist\/confirm\?token=/);
  expect(link.startsWith(`${localhostUrl(server)}/waitlist/confirm?token=`)).toBe(true);
  await page.goto(link);
  await page.getByRole('status').getByText('is confirmed on the waitlist').waitFor();
}

describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: signing up in every signup mode',
  // A real browser and server on a shared machine: generous, so that a slow moment is no failure.
  { timeout: 90_000 },
  () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function fresh(): Promise<Page> {
      const { page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      return page;
    }

    describe('invite mode with an allowlist', () => {
      let server: DashboardServer;

      beforeAll(async () => {
        server = await startDashboardServer({
          SVC_SIGNUP_MODE: 'invite',
          SVC_SIGNUP_ALLOWLIST: '@allowed.example',
        });
      });
      afterAll(async () => {
        await server?.close();
      });

      it('refuses an address without an invitation, in words', async () => {
        const page = await fresh();
        await signUp(page, server, newEmail('uninvited'));
        await page.getByRole('heading', { name: 'An invitation is needed' }).waitFor();
        await page.context().close();
      });

      it('signs up with an invite code from svc invites create', async () => {
        const created = await runSvc(
          ['invites', 'create', '--data-dir', server.dataDir, '--json'],
          server.env,
        );
        expect(created.code).toBe(0);
        const { code } = JSON.parse(created.stdout) as { code: string };
        const page = await fresh();
        const email = newEmail('invited');
        await signUp(page, server, email, code);
        await page.getByRole('heading', { name: 'Check your email' }).waitFor();
        await server.linkFromEmail(email, /\/verify-email\?token=ver_/);
        // The code admitted one signup: a second is refused.
        const other = await fresh();
        await signUp(other, server, newEmail('late'), code);
        await other.getByRole('heading', { name: 'An invitation is needed' }).waitFor();
        await page.context().close();
        await other.context().close();
      });

      it('signs up an allowlisted address without a code', async () => {
        const page = await fresh();
        const email = `someone${Date.now()}@allowed.example`;
        await signUp(page, server, email);
        await page.getByRole('heading', { name: 'Check your email' }).waitFor();
        await server.linkFromEmail(email, /\/verify-email\?token=ver_/);
        await page.context().close();
      });

      it('offers the waitlist to someone without an invitation', async () => {
        const page = await fresh();
        await page.goto(`${server.url}/signup`);
        await page.getByText('No invitation? Join the waitlist').click();
        await joinWaitlist(page, server, newEmail('waiting'));
        await page.context().close();
      });
    });

    describe('closed mode', () => {
      let server: DashboardServer;

      beforeAll(async () => {
        server = await startDashboardServer({ SVC_SIGNUP_MODE: 'closed' });
      });
      afterAll(async () => {
        await server?.close();
      });

      it('says signing up is closed and takes a place on the waitlist, confirmed from the email', async () => {
        const page = await fresh();
        await page.goto(`${server.url}/signup`);
        await page.getByText('Signing up is closed for now.').waitFor();
        expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
        await joinWaitlist(page, server, newEmail('closed'));
        await page.context().close();
      });
    });
  },
);
