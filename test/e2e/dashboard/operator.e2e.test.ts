import type { SvcClient } from '@svc/sdk';
import { ListSourceServer } from '@svc/testing/list-source';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { runSvc, svcBuilt } from '../../support/cli-process.js';
import {
  browserSkipReason,
  type DashboardServer,
  flipSwitch,
  launchBrowser,
  localhostUrl,
  newEmail,
  newPage,
  PASSWORD,
  seriousViolations,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from '../../support/dashboard-browser.js';
import { makeOperator, open, signedInClient } from '../../support/dashboard-data.js';
import { totpCode } from '../../support/totp.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/** A TOTP code `stepsBack` steps before now, taken away from a step boundary so that it is valid on arrival. */
async function totpNow(secret: string, stepsBack = 0): Promise<string> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_500 - intoStep));
  return totpCode(secret, new Date(Date.now() - stepsBack * 30_000));
}

/** The operator area in Chromium, as an account flagged with `svc accounts set-operator`. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: operator area', { timeout: 120_000 }, () => {
  let server: DashboardServer;
  let browser: Browser;
  let operatorEmail: string;
  let ownerEmail: string;
  let owner: SvcClient;
  let listSources: ListSourceServer;

  beforeAll(async () => {
    // Blocklist sources come from a local mirror: the list sources page shows what it answered.
    listSources = await ListSourceServer.start();
    [server, browser] = await Promise.all([
      startDashboardServer({ SVC_LIST_MIRROR_URL: listSources.url }),
      launchBrowser(),
    ]);
    operatorEmail = await verifiedAccount(server, newEmail('operator'));
    await makeOperator(server, operatorEmail);
    ownerEmail = await verifiedAccount(server, newEmail('owner'));
    owner = await signedInClient(server, ownerEmail);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await listSources?.close();
  });

  async function asOperator(): Promise<Page> {
    const { page } = await newPage(browser, { bypassCSP: true });
    page.setDefaultTimeout(20_000);
    await signIn(page, server, operatorEmail);
    return page;
  }

  it('keeps the area from other accounts: no navigation entry, and the page says it is for operators', async () => {
    const { page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    await signIn(page, server, ownerEmail);
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).count(),
    ).toBe(0);
    await page.goto(`${server.url}/operator/blocks`);
    await page.getByRole('heading', { name: 'For operators only' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create the block' }).count()).toBe(0);
    await page.context().close();
  });

  it('triages the list-report queue oldest due first; the reporter is emailed the outcome and note', async () => {
    const profile = await owner.profiles.create({ name: 'Reported' });
    await owner.profiles.listReports.create(profile.id, {
      domain: 'first.example',
      list_id: 1,
      kind: 'false_positive',
    });
    await owner.profiles.listReports.create(profile.id, {
      domain: 'second.example',
      list_id: 2,
      kind: 'false_negative',
      note: 'Pure adware',
    });
    const page = await asOperator();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'List reports' }).waitFor();
    const queue = page.getByRole('list', { name: 'Reports, oldest due first' });
    // The queue fills in after the heading: read its order once both reports are shown.
    await queue.getByRole('listitem', { name: 'first.example' }).waitFor();
    await queue.getByRole('listitem', { name: 'second.example' }).waitFor();
    const domains = await queue
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    // Oldest due first, ties (reports made over a weekend are all due Wednesday 00:00, spec 2.6) in the order
    // they were filed, then by id.
    const expected = (await owner.profiles.listReports.list(profile.id).toArray())
      .sort(
        (a, b) =>
          a.triage_due_at.localeCompare(b.triage_due_at) ||
          a.created_at.localeCompare(b.created_at) ||
          (a.id < b.id ? -1 : 1),
      )
      .map((each) => each.domain);
    expect(domains.filter((domain) => domain === 'first.example' || domain === 'second.example')).toEqual(
      expected.filter((domain) => domain === 'first.example' || domain === 'second.example'),
    );

    const report = queue.getByRole('listitem', { name: 'first.example' });
    await report.getByRole('form', { name: 'Decide on first.example' }).waitFor();
    await report.getByLabel('Reject', { exact: true }).check();
    await report.getByRole('button', { name: 'Record the decision' }).click();
    await report
      .getByRole('alert')
      .getByText(/Note to the reporter is required/)
      .waitFor();
    await report.getByRole('textbox', { name: 'Note to the reporter' }).fill('The site serves ads itself.');
    await report.getByRole('button', { name: 'Record the decision' }).click();
    await queue.getByRole('listitem', { name: 'first.example' }).waitFor({ state: 'detached' });
    const [decided] = await owner.profiles.listReports
      .list(profile.id)
      .toArray()
      .then((all) => all.filter((each) => each.domain === 'first.example'));
    expect(decided).toMatchObject({ status: 'rejected', resolution_note: 'The site serves ads itself.' });
    const mails = await eventually(
      async () => server.mailTo(ownerEmail),
      (found) => found.some((mail) => mail.includes('The site serves ads itself.')),
      15_000,
    );
    expect(mails.some((mail) => mail.includes('first.example'))).toBe(true);

    await page.getByRole('combobox', { name: 'Show reports' }).selectOption('rejected');
    await page
      .getByRole('listitem', { name: 'first.example' })
      .getByText('The site serves ads itself.')
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('blocks a domain for every profile, refuses a duplicate and a malformed one at the field, and removes it', async () => {
    const page = await asOperator();
    await open(page, server, '/operator/blocks', 'Operator blocks');
    await page.getByRole('textbox', { name: 'Pattern' }).fill('not a pattern!');
    await page.getByRole('button', { name: 'Create the block' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'Some answers need changing' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Pattern' }).getAttribute('aria-invalid')).toBe('true');

    await page.getByRole('textbox', { name: 'Pattern' }).fill('casino.example');
    await page.getByRole('radio', { name: 'Legal order' }).check();
    await page.getByRole('textbox', { name: 'Public reference' }).fill('Court order 7');
    await page.getByRole('textbox', { name: 'Jurisdictions' }).fill('CA');
    await page.getByRole('button', { name: 'Create the block' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Blocked casino.example: operator blocks file version' })
      .waitFor();
    const table = page.getByRole('table', { name: 'Live operator blocks, newest first' });
    await table
      .getByRole('row', { name: /casino\.example/ })
      .getByText('Court order 7')
      .waitFor();

    // The form is emptied once the block exists; the same pattern typed again is refused as a duplicate.
    expect(await page.getByRole('textbox', { name: 'Pattern' }).inputValue()).toBe('');
    await page.getByRole('textbox', { name: 'Pattern' }).fill('casino.example');
    await page.getByRole('button', { name: 'Create the block' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'This pattern is blocked already' }).waitFor();

    // csam entries are fleet-wide: a scope is refused at its field.
    await page.getByRole('textbox', { name: 'Pattern' }).fill('abuse-material.example');
    await page.getByRole('radio', { name: 'Child sexual abuse material' }).check();
    await page.getByRole('textbox', { name: 'Jurisdictions' }).fill('CA');
    await page.getByRole('button', { name: 'Create the block' }).click();
    await page
      .getByRole('alert')
      .getByRole('link', { name: /Jurisdictions must be empty for csam/ })
      .waitFor();

    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Remove casino.example' }).click();
    await page.getByRole('button', { name: 'Yes, remove casino.example' }).click();
    await table.getByRole('row', { name: /casino\.example/ }).waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Show' }).selectOption('removed');
    await page
      .getByRole('table', { name: 'Removed operator blocks, newest first' })
      .getByText('casino.example')
      .waitFor();
    await page.context().close();
  });

  it('blocks an abusive source until its expiry, which it requires, and removes it', async () => {
    const page = await asOperator();
    await open(page, server, '/operator/source-blocks', 'Source blocks');
    await page.getByRole('textbox', { name: 'Source prefix' }).fill('203.0.113.77/24');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Amplification abuse');
    await page.getByRole('button', { name: 'Block the source' }).click();
    await page
      .getByRole('alert')
      .getByRole('link', { name: /Expires/ })
      .waitFor();
    await page.getByLabel('Expires').fill('2099-01-01T12:00');
    await page.getByRole('button', { name: 'Block the source' }).click();
    await page.getByRole('status').filter({ hasText: 'Blocked 203.0.113.0/24' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Source prefix' }).inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Remove 203.0.113.0/24' }).click();
    await page.getByRole('button', { name: 'Yes, remove 203.0.113.0/24' }).click();
    await page
      .getByRole('table', { name: 'Live source blocks, newest first' })
      .waitFor({ state: 'detached' });
    await page.getByText('No source block in this state.').waitFor();
    await page.context().close();
  });

  it('suspends a profile with a reason its owner never sees, then reinstates it', async () => {
    const profile = await owner.profiles.create({ name: 'Abusive' });
    const page = await asOperator();
    await open(page, server, '/operator/profiles', 'Profile suspension');
    // Found by its name among every organisation's profiles, with its owner's email beside it.
    await page.getByRole('searchbox', { name: 'Find a profile' }).fill('abusive');
    await page.getByRole('button', { name: 'Find profiles' }).click();
    const found = page.getByRole('table', { name: 'Profiles matching “abusive”, newest first' });
    await found
      .getByRole('row', { name: /Abusive/ })
      .getByText(ownerEmail)
      .waitFor();
    await found.getByRole('link', { name: 'Abusive' }).click();
    await page.getByRole('heading', { name: /Abusive/ }).waitFor();
    await page.getByRole('button', { name: 'Suspend the profile' }).click();
    await page
      .getByRole('alert')
      .getByRole('link', { name: 'Reason is required to suspend a profile' })
      .waitFor();
    await page.getByRole('textbox', { name: 'Reason' }).fill('Phishing campaign ticket 42');
    await page.getByRole('button', { name: 'Suspend the profile' }).click();
    await page.getByRole('button', { name: 'Reinstate the profile' }).waitFor();
    expect((await owner.profiles.get(profile.id)).suspended).toBe(true);

    // The owner sees the suspension, not its reason, and a change is refused in words.
    const { page: ownerPage } = await newPage(browser);
    ownerPage.setDefaultTimeout(20_000);
    await signIn(ownerPage, server, ownerEmail);
    await open(ownerPage, server, `/profiles/${profile.id}/security`, 'Security');
    await ownerPage.getByRole('note').getByText('An operator suspended this profile.').waitFor();
    expect(await ownerPage.getByText('Phishing campaign').count()).toBe(0);
    await flipSwitch(ownerPage.getByRole('switch', { name: 'Block newly registered domains' }));
    await ownerPage
      .getByRole('region', { name: 'Notifications' })
      .getByText('Block newly registered domains was not changed: This profile is suspended')
      .waitFor();
    expect(await ownerPage.getByRole('switch', { name: 'Block newly registered domains' }).isChecked()).toBe(
      false,
    );

    await page.getByRole('button', { name: 'Reinstate the profile' }).click();
    await page.getByRole('button', { name: 'Suspend the profile' }).waitFor();
    expect((await owner.profiles.get(profile.id)).suspended).toBe(false);
    await ownerPage.context().close();
    await page.context().close();
  });

  it('reads every organisation’s audit log, feedback and client errors', async () => {
    await owner.feedback.send({ message: 'The charts are lovely', rating: 5 });
    await owner.clientErrors.report({ message: 'TypeError: boom in the rules page', kind: 'error' });
    const me = await owner.auth.me();
    const page = await asOperator();
    await open(page, server, '/operator/feedback', 'Feedback');
    await page.getByText('The charts are lovely').waitFor();
    await page.getByText('Rated 5 of 5').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await open(page, server, '/operator/client-errors', 'Client errors');
    await page.getByText('TypeError: boom in the rules page').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await open(page, server, '/operator/audit', 'Audit log');
    await page.getByRole('textbox', { name: 'Organisation id' }).fill(me.org_id);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/org_id=/);
    const table = page.getByRole('table', { name: 'Audit entries of every organisation, newest first' });
    await table.getByRole('row').nth(1).waitFor();
    const orgs = await table
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((row) => row.children[1]?.textContent));
    expect(new Set(orgs)).toEqual(new Set([me.org_id]));
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('shows each list source’s last fetch, and why an HTML page was refused in place of the list (issue 35)', async () => {
    listSources.route('/stevenblack-unified', {
      body: '<!DOCTYPE html>\n<html><body>Rate limit exceeded</body></html>\n',
    });
    const refreshed = await runSvc(
      ['lists', 'refresh', '--list', '1', '--data-dir', server.dataDir, '--json'],
      server.env,
    );
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const page = await asOperator();
    await open(page, server, '/operator/list-sources', 'List sources');
    const source = page.getByRole('listitem', { name: 'StevenBlack/hosts unified', exact: true });
    await source.getByText('Failed (HTTP 200)').waitFor();
    expect(
      await source.getByRole('note', { name: 'Why StevenBlack/hosts unified failed' }).textContent(),
    ).toBe('refused: the file is an HTML page, not a list; the last good version stays');
    await page.getByRole('listitem', { name: 'oisd big', exact: true }).getByText('Never fetched.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('deletes an account on its owner’s behalf and cancels the deletion', async () => {
    const leaving = await signedInClient(server, await verifiedAccount(server, newEmail('leaving')));
    const account = await leaving.auth.me();
    const page = await asOperator();
    await open(page, server, '/operator/accounts', 'Accounts');
    // Found by part of its email (any case), chosen for the deletion form: no id to paste.
    const part = account.email.split('@')[0]?.toUpperCase() ?? '';
    await page.getByRole('searchbox', { name: 'Find an account' }).fill(part);
    await page.getByRole('button', { name: 'Find accounts' }).click();
    await page
      .getByRole('table', { name: `Accounts matching “${part}”, newest first` })
      .getByRole('button', { name: `Choose ${account.email}` })
      .click();
    expect(await page.getByRole('textbox', { name: 'Account id', exact: true }).inputValue()).toBe(
      account.id,
    );
    await page.getByRole('button', { name: 'Start the deletion' }).click();
    await page.getByRole('alert').getByRole('link', { name: 'Reason is required' }).waitFor();
    await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Asked by email');
    await page.getByRole('textbox', { name: 'Ticket', exact: true }).fill('SUP-1234');
    await page.getByRole('button', { name: 'Start the deletion' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deletion of ${account.email} started` })
      .waitFor();

    await page.getByRole('textbox', { name: 'Account id of the deletion to cancel' }).fill(account.id);
    await page.getByRole('button', { name: 'Cancel the deletion' }).click();
    await page.getByRole('status').filter({ hasText: 'Deletion cancelled' }).waitFor();
    // A search that finds nobody says so.
    await page.getByRole('searchbox', { name: 'Find an account' }).fill('nobody-at-all@');
    await page.getByRole('button', { name: 'Find accounts' }).click();
    await page.getByText('No account matches “nobody-at-all@”.').waitFor();
    await page.getByRole('button', { name: 'Cancel the deletion' }).click();
    await page.getByRole('alert').getByRole('heading', { name: 'No deletion is pending' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

/**
 * Outside development an operator's password-only session gets 403 mfa_required on every admin route (spec
 * 5.4): the page says how to sign in more strongly, and a sign-in with an authenticator code opens the area.
 */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: operator area in production',
  { timeout: 120_000 },
  () => {
    let server: DashboardServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([
        startDashboardServer({
          SVC_ENV: 'production',
          SVC_SIGNUP_MODE: 'open',
          // Production on one host, with the embedded engines in the data dir, and no metrics endpoint.
          SVC_ALLOW_EMBEDDED: 'true',
          SVC_METRICS_ENABLED: 'false',
        }),
        launchBrowser(),
      ]);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('asks a password-only session for a second factor, and opens with one', async () => {
      const email = await verifiedAccount(server, newEmail('strong'));
      await makeOperator(server, email);
      const origin = localhostUrl(server);
      const { page } = await newPage(browser);
      // Production hashes passwords at full cost: a sign-in on a busy machine may take a while.
      page.setDefaultTimeout(60_000);
      const signInHere = async (code?: string) => {
        await page.goto(`${origin}/login`);
        await page.getByLabel('Email address', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        if (code === undefined) return;
        await page.getByRole('textbox', { name: 'Authenticator code' }).fill(code);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      };
      await signInHere();
      await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
      await page.goto(`${origin}/operator`);
      await page.getByRole('alert').getByRole('heading', { name: 'A stronger sign-in is needed' }).waitFor();

      const client = await signedInClient(server, email);
      const enrolment = await client.auth.totp.start();
      // A code is accepted once and never before a later step: confirm with the previous step's code (within
      // the drift the server allows), then sign in with the current one.
      await client.auth.totp.confirm(await totpNow(enrolment.secret, 1));
      await page.context().clearCookies();
      await signInHere(await totpNow(enrolment.secret));
      await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
      await page.goto(`${origin}/operator`);
      await page.getByText('No report in this state.').waitFor();
      await page.context().close();
    });
  },
);
