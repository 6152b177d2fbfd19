import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, signedIn, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let customer: string;

beforeAll(async () => {
  server = await startInProcessApi();
  customer = await verifiedAccount(server, newEmail('customer'));
  const { email } = await signedIn(server, newEmail('operator'));
  await setOperatorFlag(await server.app.container.getAsync<IdentityStore>(IdentityStore), email, true);
});
afterAll(() => server.close());

describe('operator accounts page', () => {
  it('finds an account by part of its email in any case and puts its id in the deletion forms', async () => {
    const { user } = renderRoute('/operator/accounts');
    await screen.findByRole('heading', { level: 1, name: 'Accounts' }, { timeout: 5000 });
    const part = customer.split('@')[0]?.toUpperCase() ?? '';
    await user.type(screen.getByRole('searchbox', { name: 'Find an account' }), part);
    await user.click(screen.getByRole('button', { name: 'Find accounts' }));
    const table = await screen.findByRole('table', { name: `Accounts matching “${part}”, newest first` });
    await user.click(within(table).getByRole('button', { name: `Choose ${customer}` }));
    const id = (screen.getByRole('textbox', { name: 'Account id' }) as HTMLInputElement).value;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole('textbox', { name: 'Account id of the deletion to cancel' })).toHaveValue(id);
  });

  it('says when nothing matches, and shows the API’s refusal of an over-long search', async () => {
    const { user } = renderRoute('/operator/accounts');
    await screen.findByRole('heading', { level: 1, name: 'Accounts' }, { timeout: 5000 });
    const search = screen.getByRole('searchbox', { name: 'Find an account' });
    await user.type(search, 'nobody-at-all@');
    await user.click(screen.getByRole('button', { name: 'Find accounts' }));
    expect(await screen.findByText('No account matches “nobody-at-all@”.')).toBeInTheDocument();
    await user.clear(search);
    await user.click(search);
    await user.paste('x'.repeat(201));
    await user.click(screen.getByRole('button', { name: 'Find accounts' }));
    const problem = await screen.findByRole('alert');
    expect(problem).toHaveTextContent(/q must be at most 200 characters/);
  });

  it('sends no search for blank text', async () => {
    const { user } = renderRoute('/operator/accounts');
    await screen.findByRole('heading', { level: 1, name: 'Accounts' }, { timeout: 5000 });
    await user.type(screen.getByRole('searchbox', { name: 'Find an account' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Find accounts' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
