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

/** The section of the page titled `name`. */
function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('Linked IPs page', () => {
  it('links an address claimed from another network as pending, with its proof URL; the field is emptied', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/linked-ips`);
    expect(await screen.findByText('No address is linked.')).toBeInTheDocument();
    const form = section('Link an address');

    await user.type(within(form).getByLabelText('IPv4 address'), '203.0.113.7');
    await user.click(within(form).getByRole('button', { name: 'Link this address' }));

    expect(await within(form).findByText(/^203\.0\.113\.7 is claimed but not proven/)).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Copy the Proof URL' })).toBeInTheDocument();
    const linked = await screen.findByRole('list', { name: 'Linked addresses' });
    expect(within(linked).getByRole('listitem')).toHaveTextContent('203.0.113.7');
    expect(within(linked).getByRole('listitem')).toHaveTextContent('Pending proof');
    expect(within(form).getByLabelText('IPv4 address')).toHaveValue('');
    const [stored] = await client.profiles.linkedIps.list(profileId).toArray();
    expect(stored).toMatchObject({ ip: '203.0.113.7', state: 'pending' });
  });

  it('shows the 422 of a malformed address at its field, keeps what was typed and links nothing', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/linked-ips`);
    await screen.findByText('No address is linked.');
    const form = section('Link an address');

    await user.type(within(form).getByLabelText('IPv4 address'), '203.0.113');
    await user.click(within(form).getByRole('button', { name: 'Link this address' }));

    const summary = await within(form).findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^IPv4 address/ })).toHaveAttribute('href', '#field-ip');
    expect(within(form).getByLabelText('IPv4 address')).toBeInvalid();
    expect(within(form).getByLabelText('IPv4 address')).toHaveValue('203.0.113');
    expect(await client.profiles.linkedIps.list(profileId).toArray()).toEqual([]);
  });

  it('creates a DDNS slot: only its own acknowledgement shows, and its update URL is shown on request', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/linked-ips`);
    await screen.findByText('No address is linked.');
    const form = section('Link an address');
    await user.type(within(form).getByLabelText('IPv4 address'), '198.51.100.9');
    await user.click(within(form).getByRole('button', { name: 'Link this address' }));
    await within(form).findByText(/^198\.51\.100\.9 is claimed/);

    await user.click(within(form).getByRole('button', { name: 'Create a DDNS slot' }));

    expect(await within(form).findByText(/A DDNS slot is created/)).toBeInTheDocument();
    expect(within(form).queryByText(/198\.51\.100\.9 is claimed/)).not.toBeInTheDocument();
    const linked = screen.getByRole('list', { name: 'Linked addresses' });
    await within(linked).findByText('Waiting for its first DDNS update');
    await user.click(
      within(linked).getByRole('button', { name: 'Show the DDNS update URL of the empty slot' }),
    );
    expect(
      await within(linked).findByRole('button', { name: 'Copy the DDNS update URL' }),
    ).toBeInTheDocument();
    const ddns = (await client.profiles.linkedIps.list(profileId).toArray()).find((link) => link.ddns);
    if (ddns === undefined) throw new Error('no DDNS slot stored');
    const { update_url: updateUrl } = await client.profiles.linkedIps.ddnsUrl(profileId, ddns.id);
    expect(linked).toHaveTextContent(updateUrl);
  });

  it('unlinks an address', async () => {
    await client.profiles.linkedIps.create(profileId, { ip: '192.0.2.44' });
    const { user } = renderRoute(`/profiles/${profileId}/linked-ips`);
    await user.click(await screen.findByRole('button', { name: 'Unlink 192.0.2.44' }));

    expect(await screen.findByText('No address is linked.')).toBeInTheDocument();
    expect(await client.profiles.linkedIps.list(profileId).toArray()).toEqual([]);
  });
});
