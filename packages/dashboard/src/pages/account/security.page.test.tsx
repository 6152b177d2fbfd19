import { createClient, type SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let email: string;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(async () => {
  ({ email } = await signedIn(server));
});

/** The same account signed in elsewhere (another browser): a second session. */
async function signedInElsewhere(): Promise<SvcClient> {
  const elsewhere = createClient({ baseUrl: server.url, origin: server.dashboardOrigin, maxRetries: 0 });
  await elsewhere.auth.login({ email, password: PASSWORD });
  return elsewhere;
}

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('Sign-in and security page: password', () => {
  it('changes the password and says how many other sessions were signed out; they are', async () => {
    const elsewhere = await signedInElsewhere();
    const { user } = renderRoute('/account/security');
    await screen.findByRole('heading', { level: 1, name: 'Sign-in and security' });
    const password = section('Password');

    await user.type(within(password).getByLabelText('Current password'), PASSWORD);
    await user.type(within(password).getByLabelText('New password'), 'a brand new passphrase here');
    await user.click(within(password).getByRole('button', { name: 'Change password' }));

    expect(await within(password).findByRole('status')).toHaveTextContent(
      'Password changed. 1 other session was signed out.',
    );
    await expect(elsewhere.auth.me()).rejects.toMatchObject({ status: 401 });
    const fresh = createClient({ baseUrl: server.url, maxRetries: 0 });
    await expect(fresh.auth.login({ email, password: PASSWORD })).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a wrong current password, says so, and changes nothing', async () => {
    const { user } = renderRoute('/account/security');
    await screen.findByRole('heading', { level: 1, name: 'Sign-in and security' });
    const password = section('Password');

    await user.type(within(password).getByLabelText('Current password'), 'not my password at all');
    await user.type(within(password).getByLabelText('New password'), 'a brand new passphrase here');
    await user.click(within(password).getByRole('button', { name: 'Change password' }));

    const problem = await within(password).findByRole('alert');
    expect(problem).toHaveFocus();
    expect(problem).toHaveTextContent('The current password is not right.');
    expect(within(password).queryByRole('status')).not.toBeInTheDocument();
    // Still signed in: a wrong password in this form is not the end of the session.
    expect(screen.getByRole('heading', { level: 1, name: 'Sign-in and security' })).toBeInTheDocument();
    const fresh = createClient({ baseUrl: server.url, maxRetries: 0 });
    await expect(fresh.auth.login({ email, password: PASSWORD })).resolves.toMatchObject({ email });
  });

  it('says a new password that is too short is too short, at the new password field', async () => {
    const { user } = renderRoute('/account/security');
    await screen.findByRole('heading', { level: 1, name: 'Sign-in and security' });
    const password = section('Password');

    await user.type(within(password).getByLabelText('Current password'), PASSWORD);
    await user.type(within(password).getByLabelText('New password'), 'short');
    await user.click(within(password).getByRole('button', { name: 'Change password' }));

    const problem = await within(password).findByRole('alert');
    expect(within(problem).getByRole('heading', { name: 'The password is too short' })).toBeInTheDocument();
    expect(within(password).getByLabelText('New password')).toBeInvalid();
  });
});

describe('Sign-in and security page: sessions', () => {
  it('lists this session and the other, ends the other with a notice, and keeps this one', async () => {
    const elsewhere = await signedInElsewhere();
    const { user } = renderRoute('/account/security');
    const sessions = await screen.findByRole('table', { name: 'Sessions' });
    const rows = await within(sessions).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(sessions).getAllByText(/this session/)).toHaveLength(1);
    // How each signed in, in words: not the API's `password`.
    expect(within(sessions).getAllByText(/\(with a password\)/)).toHaveLength(2);

    await user.click(within(sessions).getByRole('button', { name: /^End session/ }));
    const dialog = await screen.findByRole('alertdialog', { name: /^End session: / });
    expect(dialog).toHaveTextContent('signed out at once');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, end this session' }));

    await waitForElementToBeRemoved(() => within(sessions).queryByRole('button', { name: /^End session/ }));
    expect(within(sessions).getByText(/this session/)).toBeInTheDocument();
    const notices = screen.getByRole('region', { name: 'Notifications' });
    expect(within(notices).getByText('That session is signed out.')).toBeInTheDocument();
    // The pressed button left with its row: focus is on the section's heading, not lost to the page.
    expect(screen.getByRole('heading', { name: 'Where you are signed in' })).toHaveFocus();
    await expect(elsewhere.auth.me()).rejects.toMatchObject({ status: 401 });
  });

  it('asks before ending a session: "Keep it" ends nothing and gives focus back to the End button', async () => {
    const elsewhere = await signedInElsewhere();
    const { user } = renderRoute('/account/security');
    const sessions = await screen.findByRole('table', { name: 'Sessions' });
    const end = await within(sessions).findByRole('button', { name: /^End session/ });

    await user.click(end);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep it' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(end).toHaveFocus());
    expect(within(sessions).getAllByRole('row')).toHaveLength(3);
    await expect(elsewhere.auth.me()).resolves.toMatchObject({ email });
  });

  it('signs out every other session at once and says how many', async () => {
    const first = await signedInElsewhere();
    const second = await signedInElsewhere();
    const { user } = renderRoute('/account/security');
    await screen.findByRole('table', { name: 'Sessions' });
    const sessions = section('Where you are signed in');

    await user.click(within(sessions).getByRole('button', { name: 'Sign out every other session' }));

    expect(await within(sessions).findByRole('status')).toHaveTextContent(
      '2 other sessions were signed out.',
    );
    await expect(first.auth.me()).rejects.toMatchObject({ status: 401 });
    await expect(second.auth.me()).rejects.toMatchObject({ status: 401 });
    expect(within(sessions).queryByRole('button', { name: /^End session/ })).not.toBeInTheDocument();
  });
});
