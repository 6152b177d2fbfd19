import { describe, expect, it } from 'vitest';
import { browserSkipReason } from '../../support/dashboard-browser.js';
import { logRow, startInProcessDashboard } from '../../support/dashboard-in-process.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

const SECOND = 1000;

/**
 * Issue 36, "no internal names on screen": the log's rows and a query's details speak in words, never in the
 * API's codes (`operator:abuse`, `doh`, `rewritten`) nor with the `=` the log adds to mark a rewrite the person
 * typed without one.
 */
describe.skipIf(browserSkipReason !== undefined)('dashboard: the logs in words', () => {
  const dashboard = signedInDashboard('logs-words', { start: () => startInProcessDashboard() });

  it('shows statuses, reasons, transports and PoPs by name', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Words' });
    const base = Date.now() - 10 * 60 * SECOND;
    await dashboard.server.writeRows([
      logRow(profile.id, {
        qname: 'printer.home.example',
        ts: new Date(base),
        status: 'rewritten',
        reasonRule: 'printer.home.example',
        transport: 'dot',
        answerIps: ['192.168.1.20'],
      }),
      logRow(profile.id, {
        qname: 'bad.example',
        ts: new Date(base + SECOND),
        status: 'blocked',
        operatorCode: 'abuse',
        reasonRule: 'bad.example',
        rcode: 3,
        answerIps: [],
      }),
      logRow(profile.id, {
        qname: 'ads.example',
        ts: new Date(base + 2 * SECOND),
        status: 'blocked',
        reasonListId: 1,
        reasonListName: 'StevenBlack unified hosts',
        rcode: 3,
        answerIps: [],
      }),
    ]);
    const { page } = await dashboard.signedInPage();
    await page.goto(`${dashboard.server.url}/profiles/${profile.id}/logs?mode=search`);
    const table = page.getByRole('table', { name: 'Queries found, newest first' });
    await table.getByRole('button', { name: 'printer.home.example', exact: true }).waitFor();

    const rewrite = table.getByRole('row').filter({ hasText: 'printer.home.example' });
    await rewrite.getByRole('cell', { name: 'Rewritten', exact: true }).waitFor();
    await rewrite.getByRole('cell', { name: 'Rewritten by printer.home.example', exact: true }).waitFor();
    const operator = table.getByRole('row').filter({ hasText: 'bad.example' });
    await operator.getByRole('cell', { name: 'Blocked by the operator to stop abuse' }).waitFor();
    const list = table.getByRole('row').filter({ hasText: 'ads.example' });
    await list.getByRole('cell', { name: 'StevenBlack unified hosts' }).waitFor();
    const rows = (await table.textContent()) ?? '';
    expect(rows).not.toContain('=printer');
    expect(rows).not.toMatch(/operator:|\brewritten\b|\bblocked\b/);

    await table.getByRole('button', { name: 'printer.home.example', exact: true }).click();
    const details = page.getByRole('region', { name: 'printer.home.example' });
    await details.getByText('DNS over TLS', { exact: true }).waitFor();
    const facts = (await details.textContent()) ?? '';
    expect(facts).not.toMatch(/\bdot\b|=printer|\brewritten\b/);
    await page.context().close();
  });
});
