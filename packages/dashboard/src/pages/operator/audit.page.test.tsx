import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { AuditActions, createClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signedIn, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let customerOrg: string;

beforeAll(async () => {
  server = await startInProcessApi();
  // A customer who signs in, creates a token and revokes it: three actions in its organisation's log.
  const customerEmail = await verifiedAccount(server, newEmail('customer'));
  const customer = createClient({ baseUrl: server.url, origin: server.dashboardOrigin, maxRetries: 0 });
  await customer.auth.login({ email: customerEmail, password: PASSWORD });
  const token = await customer.tokens.create({ name: 'Old script', scopes: ['profiles:read'] });
  await customer.tokens.revoke(token.token.id);
  customerOrg = (await customer.auth.me()).org_id;
  const { email } = await signedIn(server, newEmail('operator'));
  await setOperatorFlag(await server.app.container.getAsync<IdentityStore>(IdentityStore), email, true);
});
afterAll(() => server.close());

const actionsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.children[2]?.textContent);

describe('operator audit page', () => {
  it('offers every audit action by its words, and "Any action", in a select rather than a text box', async () => {
    renderRoute('/operator/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit log' }, { timeout: 5000 });
    const select = screen.getByRole('combobox', { name: 'Action' });
    expect(select).toHaveValue('');
    const options = within(select).getAllByRole('option');
    expect(options[0]).toHaveTextContent('Any action');
    expect(options.slice(1).map((option) => option.getAttribute('value'))).toEqual(
      expect.arrayContaining([...AuditActions]),
    );
    expect(options).toHaveLength(AuditActions.length + 1);
    // Words, never the recorded names: no option reads like `token.revoked`.
    expect(options.filter((option) => /^[a-z_]+\.[a-z_]+$/.test(option.textContent ?? ''))).toEqual([]);
    expect(within(select).getByRole('option', { name: 'API token revoked' })).toHaveValue('token.revoked');
    expect(screen.queryByRole('textbox', { name: 'Action' })).not.toBeInTheDocument();
  });

  it('filters by the chosen action in the address, and "Any action" lifts the filter', async () => {
    const { user } = renderRoute('/operator/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit log' }, { timeout: 5000 });
    await user.type(screen.getByRole('textbox', { name: 'Organisation id' }), customerOrg);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'API token revoked');
    await user.click(screen.getByRole('button', { name: 'Filter' }));

    const caption = 'Audit entries of every organisation, newest first';
    expect(
      await within(await screen.findByRole('table', { name: caption })).findAllByRole('row'),
    ).toHaveLength(2);
    expect(new URLSearchParams(window.location.search).get('action')).toBe('token.revoked');
    expect(actionsOf(screen.getByRole('table', { name: caption }))).toEqual(['API token revoked']);
    // The filter survives the page's new address: the select still shows it.
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('token.revoked');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'Any action');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByRole('cell', { name: 'API token created' });
    expect(new URLSearchParams(window.location.search).has('action')).toBe(false);
    expect(new Set(actionsOf(screen.getByRole('table', { name: caption })))).toEqual(
      new Set(['Signed in', 'API token created', 'API token revoked']),
    );
  });

  it('keeps an action this dashboard does not know (a later API’s) choosable when the address names it', async () => {
    renderRoute('/operator/audit?action=profile.renamed');
    await screen.findByRole('heading', { level: 1, name: 'Audit log' }, { timeout: 5000 });
    const select = screen.getByRole('combobox', { name: 'Action' });
    expect(select).toHaveValue('profile.renamed');
    expect(within(select).getByRole('option', { name: 'profile.renamed' })).toBeInTheDocument();
  });
});
