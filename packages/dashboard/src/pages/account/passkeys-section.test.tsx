import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { SoftwareAuthenticator } from '@svc/testing/software-authenticator';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let client: SvcClient;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(async () => {
  ({ client } = await signedIn(server));
});

/** Registers a passkey named `name` for the signed-in account, made by a software authenticator. */
async function registerPasskey(name: string): Promise<void> {
  const authenticator = new SoftwareAuthenticator(server.dashboardOrigin);
  const options = await client.auth.passkeys.registrationOptions();
  await client.auth.passkeys.register(authenticator.register(options), name);
}

const notices = () => screen.getByRole('region', { name: 'Notifications' });

function passkeys(): HTMLElement {
  return screen.getByRole('region', { name: 'Passkeys' });
}

describe('Passkeys on the sign-in and security page', () => {
  it('says there is none yet, and that this browser cannot create one (jsdom has no WebAuthn)', async () => {
    renderRoute('/account/security');
    await screen.findByRole('heading', { level: 1, name: 'Sign-in and security' });

    expect(await within(passkeys()).findByText('You have no passkey yet.')).toBeInTheDocument();
    expect(within(passkeys()).getByText(/This browser cannot create passkeys/)).toBeInTheDocument();
    expect(within(passkeys()).queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });

  it('renames a passkey in place, says so in a notice and puts focus back on its Rename button', async () => {
    await registerPasskey('Laptop');
    const { user } = renderRoute('/account/security');
    const list = await within(await screen.findByRole('region', { name: 'Passkeys' })).findByRole('list', {
      name: 'Your passkeys',
    });

    await user.click(within(list).getByRole('button', { name: 'Rename Laptop' }));
    const form = within(list).getByRole('form', { name: 'Rename Laptop' });
    const name = within(form).getByLabelText('New name');
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.type(name, 'Work laptop');
    await user.click(within(form).getByRole('button', { name: 'Save name' }));

    expect(await within(list).findByText('Work laptop')).toBeInTheDocument();
    expect(within(list).queryByRole('form')).not.toBeInTheDocument();
    expect(await within(notices()).findByText('Passkey renamed to Work laptop.')).toBeInTheDocument();
    expect(await within(list).findByRole('button', { name: 'Rename Work laptop' })).toHaveFocus();
    expect((await client.auth.passkeys.list()).map((passkey) => passkey.name)).toEqual(['Work laptop']);
  });

  it('shows the 422 of an empty name at the name field and keeps the old name', async () => {
    await registerPasskey('Phone');
    const { user } = renderRoute('/account/security');
    const list = await within(await screen.findByRole('region', { name: 'Passkeys' })).findByRole('list', {
      name: 'Your passkeys',
    });

    await user.click(within(list).getByRole('button', { name: 'Rename Phone' }));
    const form = within(list).getByRole('form', { name: 'Rename Phone' });
    await user.clear(within(form).getByLabelText('New name'));
    await user.click(within(form).getByRole('button', { name: 'Save name' }));

    const problem = await within(form).findByRole('alert');
    expect(within(problem).getByRole('link', { name: 'New name must not be empty' })).toBeInTheDocument();
    expect(within(form).getByLabelText('New name')).toBeInvalid();
    expect(within(notices()).queryByText(/^Passkey renamed/)).not.toBeInTheDocument();
    expect((await client.auth.passkeys.list()).map((passkey) => passkey.name)).toEqual(['Phone']);
  });

  it('deletes a passkey, says so in a notice and moves focus to the section, not the top of the page', async () => {
    await registerPasskey('Old key');
    const { user } = renderRoute('/account/security');
    const section = await screen.findByRole('region', { name: 'Passkeys' });

    await user.click(await within(section).findByRole('button', { name: 'Delete Old key' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Old key' });
    expect(dialog).toHaveTextContent('It no longer signs you in');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete Old key' }));

    expect(await within(section).findByText('You have no passkey yet.')).toBeInTheDocument();
    expect(
      within(notices()).getByText('Passkey Old key removed: it no longer signs you in.'),
    ).toBeInTheDocument();
    expect(within(section).getByRole('heading', { name: 'Passkeys' })).toHaveFocus();
    expect(await client.auth.passkeys.list()).toEqual([]);
  });

  it('asks before deleting: Escape deletes nothing and gives focus back to the Delete button', async () => {
    await registerPasskey('Security key');
    const { user } = renderRoute('/account/security');
    const section = await screen.findByRole('region', { name: 'Passkeys' });
    const remove = await within(section).findByRole('button', { name: 'Delete Security key' });

    await user.click(remove);
    await screen.findByRole('alertdialog', { name: 'Delete Security key' });
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(remove).toHaveFocus());
    expect(within(section).getByText('Security key')).toBeInTheDocument();
    expect(within(notices()).queryByText(/removed/)).toBeNull();
    expect((await client.auth.passkeys.list()).map((passkey) => passkey.name)).toEqual(['Security key']);
  });
});
