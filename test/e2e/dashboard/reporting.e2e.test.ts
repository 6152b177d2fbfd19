import type { Browser, Page, Request } from 'playwright-core';
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

/** The next client-error report the page posts, and the server's answer to it. */
async function nextReport(
  page: Page,
  act: () => Promise<unknown>,
): Promise<{ body: Record<string, unknown>; status: number }> {
  const [request] = await Promise.all([
    page.waitForRequest(
      (candidate: Request) => candidate.method() === 'POST' && candidate.url().endsWith('/v1/client-errors'),
    ),
    act(),
  ]);
  const response = await request.response();
  return { body: request.postDataJSON() as Record<string, unknown>, status: response?.status() ?? 0 };
}

/** Failures are shown in words and reported; feedback reaches the operators. */
describe.skipIf(browserSkipReason !== undefined)(
  'dashboard: error reports and feedback',
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

    async function signedIn(): Promise<Page> {
      const email = await verifiedAccount(server, newEmail('reports'));
      const { page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await signIn(page, server, email);
      return page;
    }

    it('shows a server failure in words with its reference, reports it, and recovers on retry', async () => {
      const page = await signedIn();
      let fail = true;
      await page.route(
        (url) => url.pathname === '/v1/profiles',
        async (route) => {
          if (!fail) return route.continue();
          await route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            body: JSON.stringify({
              title: 'Internal Server Error',
              status: 500,
              code: 'internal',
              request_id: 'req-500-test',
            }),
          });
        },
      );
      const report = await nextReport(page, () => page.goto(`${server.url}/profiles`));
      expect(report.status).toBe(202);
      expect(report.body.message).toContain('500 internal');
      expect(report.body.message).toContain('req-500-test');
      expect(report.body.kind).toBe('api');
      expect(report.body.url).toBe(`${server.url}/profiles`);
      expect(typeof report.body.dashboard_version).toBe('string');

      const problem = page.getByRole('alert');
      await problem.getByRole('heading', { name: 'Something went wrong on our side' }).waitFor();
      expect(await problem.textContent()).toContain('req-500-test');
      expect(await problem.textContent()).not.toContain('"code"');
      fail = false;
      await problem.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('You have no profile yet.').waitFor();
      await page.context().close();
    });

    it('reports an uncaught script error without the query string of the page (emailed tokens stay private)', async () => {
      const page = await signedIn();
      await page.goto(`${server.url}/feedback?token=ver_secret-token-value`);
      await page.getByRole('heading', { level: 1, name: 'Send feedback' }).waitFor();
      const report = await nextReport(page, () =>
        page.evaluate("setTimeout(() => { throw new TypeError('dashboard test failure'); }, 0)"),
      );
      expect(report.status).toBe(202);
      expect(report.body).toMatchObject({
        message: 'dashboard test failure',
        kind: 'error',
        name: 'TypeError',
      });
      expect(report.body.url).toBe(`${server.url}/feedback`);
      expect(JSON.stringify(report.body)).not.toContain('secret-token-value');
      await page.context().close();
    });

    it('sends feedback, and shows the API message at the field when it is empty', async () => {
      const page = await signedIn();
      await page.goto(`${server.url}/feedback`);
      await page.getByRole('button', { name: 'Send feedback' }).click();
      const field = page.getByRole('textbox', { name: 'Your feedback' });
      await page.getByText('Your feedback must be 1 to 5000 characters').first().waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');

      await field.fill('The rules editor is lovely.');
      await page.getByLabel('How would you rate svc?', { exact: true }).selectOption('5');
      const [request] = await Promise.all([
        page.waitForRequest(
          (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/v1/feedback'),
        ),
        page.getByRole('button', { name: 'Send feedback' }).click(),
      ]);
      expect(request.postDataJSON()).toMatchObject({ message: 'The rules editor is lovely.', rating: 5 });
      await page.getByRole('status').getByText('Thank you').waitFor();
      await page.context().close();
    });
  },
);
