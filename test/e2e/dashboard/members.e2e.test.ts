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

/** Teams in Chromium (issue 39): invite by mail, accept after signing in, change the role, remove. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: members of an organisation',
  { timeout: 120_000 },
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

    async function pageOf(email?: string): Promise<Page> {
      const { page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      if (email !== undefined) await signIn(page, server, email);
      return page;
    }

    it('invites by mail; the invitee signs in from the link and joins; the owner changes the role and removes them', async () => {
      const owner = await verifiedAccount(server, newEmail('team-owner'));
      const invitee = await verifiedAccount(server, newEmail('team-invitee'));
      const ownerPage = await pageOf(owner);
      await ownerPage.goto(`${server.url}/account/members`);
      await ownerPage.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await ownerPage.getByLabel('Email address', { exact: true }).fill(invitee);
      await ownerPage.getByRole('radio', { name: 'Editor' }).check();
      await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
      const pending = ownerPage.getByRole('table', { name: 'Pending invitations' });
      await pending.getByRole('row', { name: new RegExp(invitee) }).waitFor();

      // The mailed link, opened signed out: the sign-in page brings the person back to accept it.
      const link = await server.linkFromEmail(invitee, /\/invitations\/accept\?token=inv_/);
      const inviteePage = await pageOf();
      await inviteePage.goto(link);
      await inviteePage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await inviteePage.getByLabel('Email address', { exact: true }).fill(invitee);
      await inviteePage.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await inviteePage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await inviteePage
        .getByRole('status')
        .filter({ hasText: /You joined .+ as Editor\./ })
        .waitFor();

      await ownerPage.reload();
      const role = ownerPage.getByRole('combobox', { name: `Role of ${invitee}` });
      await role.selectOption('viewer');
      await ownerPage.getByText(`${invitee} is now Viewer.`).waitFor();
      await ownerPage.getByRole('button', { name: `Remove ${invitee}` }).click();
      await ownerPage.getByText(`${invitee} no longer belongs to this organisation.`).waitFor();
      const members = ownerPage.getByRole('table', { name: 'Members of this organisation' });
      await expect.poll(() => members.getByRole('row', { name: new RegExp(invitee) }).count()).toBe(0);

      // The former member's session is back in their own organisation: the owner is no longer listed there.
      // The link is on the dashboard's own origin (SVC_DASHBOARD_URL), where the invitee's session cookie lives.
      await inviteePage.goto(new URL('/account/members', link).href);
      const own = inviteePage.getByRole('table', { name: 'Members of this organisation' });
      await own.getByRole('row', { name: new RegExp(invitee) }).waitFor();
      expect(await own.getByRole('row', { name: new RegExp(owner) }).count()).toBe(0);
      await ownerPage.context().close();
      await inviteePage.context().close();
    });
  },
);
