import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let client: SvcClient;
let profileId: string;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(async () => {
  ({ client } = await signedIn(server));
  profileId = (await client.profiles.create({ name: 'Home' })).id;
});

describe('Nodes page', () => {
  it('creates a node: its one-time enrolment command is shown, it is listed waiting for enrolment, the form is emptied', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/nodes`);
    expect(await screen.findByText('No node yet.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Node name'), 'home-rack');
    await user.click(screen.getByRole('button', { name: 'Create node' }));

    expect(await screen.findByText('Node home-rack created: enrol it within 24 hours.')).toBeInTheDocument();
    const enrolment = screen.getByRole('region', { name: 'Enrol home-rack' });
    const [stored] = await client.profiles.nodes.list(profileId).toArray();
    expect(stored?.state).toBe('pending');
    expect(within(enrolment).getByRole('button', { name: 'Copy the command' })).toBeInTheDocument();
    // The command names this API (GET /v1/meta base_url) and the one-time code.
    expect(enrolment).toHaveTextContent(`SVC_API_URL=${server.url} NODE_ENROLMENT_CODE=svcenrol_`);
    const table = await screen.findByRole('table', { name: 'Nodes of Home' });
    expect(within(table).getByRole('row', { name: /home-rack/ })).toHaveTextContent('Waiting for enrolment');
    expect(screen.getByLabelText('Node name')).toHaveValue('');
  });

  it('shows the 422 of an empty name at the name field and creates nothing', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/nodes`);
    await screen.findByText('No node yet.');

    await user.click(screen.getByRole('button', { name: 'Create node' }));

    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Node name/ })).toHaveAttribute('href', '#field-name');
    expect(screen.getByLabelText('Node name')).toBeInvalid();
    expect(screen.getByLabelText('Node name')).toHaveAccessibleDescription(/Node name/);
    expect(await client.profiles.nodes.list(profileId).toArray()).toEqual([]);
  });

  it('revokes a node only once the person confirms', async () => {
    await client.profiles.nodes.create(profileId, { name: 'old-box' });
    const { user } = renderRoute(`/profiles/${profileId}/nodes`);
    const row = await screen.findByRole('row', { name: /old-box/ });

    await user.click(within(row).getByRole('button', { name: 'Revoke old-box' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep it' }));
    expect((await client.profiles.nodes.list(profileId).toArray())[0]?.state).toBe('pending');

    await user.click(within(row).getByRole('button', { name: 'Revoke old-box' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, revoke old-box' }));

    expect(await within(row).findByText('Revoked')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Revoke old-box' })).not.toBeInTheDocument();
    expect((await client.profiles.nodes.list(profileId).toArray())[0]?.state).toBe('revoked');
  });
});

describe('Nodes page words and layout', () => {
  it('says that a node gets no logs while they go to the cloud, with the link to change it', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/nodes`);
    const warning = await screen.findByText(
      /^Logs of this profile go to the cloud: a node receives them when/,
    );
    expect(warning).toHaveTextContent(
      'Logs of this profile go to the cloud: a node receives them when Where logs go is “self-hosted” or “both”.',
    );
    await user.click(within(warning).getByRole('link', { name: 'Where logs go' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('lists nodes in a table whose cells name their column, so that each node is a card on a phone', async () => {
    await client.profiles.nodes.create(profileId, { name: 'garage-pi' });
    renderRoute(`/profiles/${profileId}/nodes`);
    const table = await screen.findByRole('table', { name: 'Nodes of Home' });
    const row = within(table).getByRole('row', { name: /garage-pi/ });
    expect(within(row).getByRole('rowheader')).toHaveTextContent('garage-pi');
    const labels = within(row)
      .getAllByRole('cell')
      .map((cell) => [cell.getAttribute('data-label'), cell.textContent]);
    expect(labels).toEqual([
      ['Link', 'Waiting for enrolment'],
      ['Version', '—'],
      ['Last seen', 'never'],
      ['Revoke', 'Revoke'],
    ]);
    expect(table).toHaveClass('responsive-table');
  });
});

describe('Nodes page isolation', () => {
  it("shows another organisation's profile as not found, with no form to add a node", async () => {
    await signedIn(server);
    renderRoute(`/profiles/${profileId}/nodes`);

    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Node name')).not.toBeInTheDocument();
  });
});
