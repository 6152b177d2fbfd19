import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
let client: SvcClient;

beforeEach(async () => {
  ({ client } = await signedIn(server));
});

describe('API tokens page', () => {
  it('creates a token with the chosen scopes, shows its secret once and lists it; the form is emptied', async () => {
    const { user } = renderRoute('/account/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });
    expect(await screen.findByText('You have no API token.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Token name'), 'Home Assistant');
    await user.click(screen.getByRole('checkbox', { name: /^profiles:read/ }));
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const secret = await screen.findByRole('heading', { name: 'Your new token Home Assistant' });
    expect(secret).toBeInTheDocument();
    expect((screen.getByLabelText('Token secret') as HTMLInputElement).value).toMatch(/^svc_/);
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const row = within(table).getByRole('row', { name: /Home Assistant/ });
    expect(row).toHaveTextContent('profiles:read');
    expect(within(row).getByRole('button', { name: 'Revoke Home Assistant' })).toBeEnabled();
    // A created token is not created twice by a second click: the form starts empty again.
    expect(screen.getByLabelText('Token name')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: /^profiles:read/ })).not.toBeChecked();
  });

  it('offers the webhooks:read and webhooks:write scopes in words; a token made with them holds them', async () => {
    const { user } = renderRoute('/account/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });
    const read = screen.getByRole('checkbox', {
      name: 'webhooks:read: Read webhook endpoints and their deliveries',
    });
    const write = screen.getByRole('checkbox', {
      name: 'webhooks:write: Add, change and remove webhook endpoints; test and redeliver',
    });

    await user.type(screen.getByLabelText('Token name'), 'Webhook admin');
    await user.click(read);
    await user.click(write);
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    await screen.findByRole('heading', { name: 'Your new token Webhook admin' });
    const [stored] = await client.tokens.list().toArray();
    expect(stored?.scopes).toEqual(['webhooks:read', 'webhooks:write']);
  });

  it('shows the 422 at the field it is about, and in the summary naming the field by its label', async () => {
    const { user } = renderRoute('/account/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });

    await user.type(screen.getByLabelText('Token name'), 'No scopes chosen');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Scopes/ })).toHaveAttribute('href', '#field-scopes');
    const scopes = screen.getByRole('group', { name: 'Scopes' });
    expect(within(scopes).getByText(/^Scopes /)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Your new token/ })).not.toBeInTheDocument();
    // What the person typed stays, to be corrected rather than typed again.
    expect(screen.getByLabelText('Token name')).toHaveValue('No scopes chosen');
  });

  it('revokes a token: it leaves the list, a notice says so and focus stays in the section', async () => {
    const { user } = renderRoute('/account/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });
    await user.type(screen.getByLabelText('Token name'), 'Short-lived');
    await user.click(screen.getByRole('checkbox', { name: /^logs:read/ }));
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Short-lived' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke Short-lived' });
    expect(dialog).toHaveTextContent('Whatever uses this token stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, revoke Short-lived' }));

    expect(await screen.findByText('You have no API token.')).toBeInTheDocument();
    const notices = screen.getByRole('region', { name: 'Notifications' });
    expect(within(notices).getByText('Token Short-lived revoked: it no longer works.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your tokens' })).toHaveFocus();
    expect(await client.tokens.list().toArray()).toEqual([]);
  });

  it('asks before revoking: "Keep it" revokes nothing and gives focus back to the Revoke button', async () => {
    await client.tokens.create({ name: 'Backup script', scopes: ['profiles:read'] });
    const { user } = renderRoute('/account/tokens');
    const revoke = await screen.findByRole('button', { name: 'Revoke Backup script' });
    expect(revoke).toHaveAttribute('aria-haspopup', 'dialog');

    await user.click(revoke);
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke Backup script' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(revoke).toHaveFocus());
    expect(screen.getByRole('row', { name: /Backup script/ })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Notifications' })).queryByText(/revoked/)).toBeNull();
    expect((await client.tokens.list().toArray()).map((token) => token.name)).toEqual(['Backup script']);
  });

  it('lists tokens as a table whose rows become labelled cards on a phone: each cell names its column', async () => {
    await client.tokens.create({ name: 'Grafana', scopes: ['analytics:read', 'logs:read'] });
    renderRoute('/account/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const row = await within(table).findByRole('row', { name: /Grafana/ });

    // The name heads its row; under 40rem the header row is hidden and each cell shows its data-label instead.
    expect(within(row).getByRole('rowheader')).toHaveTextContent('Grafana');
    const labels = within(row)
      .getAllByRole('cell')
      .map((cell) => [cell.getAttribute('data-label'), cell.textContent]);
    expect(labels).toEqual([
      ['Starts with', expect.stringMatching(/^svc_.*…$/)],
      ['Scopes', 'analytics:read, logs:read'],
      ['Last used', 'never'],
      ['Expires', 'never'],
      ['Action', 'Revoke'],
    ]);
    expect(table).toHaveClass('responsive-table');
    // No sideways-scrolling box around it any more: the rows fit the screen as cards.
    expect(table.closest('.table-scroll')).toBeNull();
  });
});
