import { createClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPages, newEmail, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(() => {
  connectPages(server);
});

const NEW_PASSWORD = 'a new and long enough passphrase';

/** Asks for a reset link for `email` through the page, and returns the path of the emailed link. */
async function resetLinkPath(email: string): Promise<string> {
  const { user, unmount } = renderRoute('/reset-password');
  await user.type(await screen.findByLabelText('Email address'), email);
  await user.click(screen.getByRole('button', { name: 'Send the link' }));
  await screen.findByRole('heading', { name: 'Check your email' });
  unmount();
  const link = new URL(await server.linkFromEmail(email, /\/reset-password\?token=/));
  return link.pathname + link.search;
}

describe('Reset-password page', () => {
  it('sends the link, and from it sets a new password that signs in', async () => {
    const email = await verifiedAccount(server);
    const path = await resetLinkPath(email);

    const { user } = renderRoute(path);
    await user.type(await screen.findByLabelText('New password'), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const done = await screen.findByRole('status');
    expect(within(done).getByRole('heading', { name: 'Your password is changed' })).toBeInTheDocument();
    expect(within(done).getByRole('link', { name: 'Sign in with your new password' })).toHaveAttribute(
      'href',
      '/login',
    );
    const client = createClient({ baseUrl: server.url, maxRetries: 0 });
    await expect(client.auth.login({ email, password: NEW_PASSWORD })).resolves.toMatchObject({ email });
  });

  it('answers an address with no account as one with an account: check your email, and no mail leaves', async () => {
    const email = newEmail('nobody');
    const { user } = renderRoute('/reset-password');
    await user.type(await screen.findByLabelText('Email address'), email);
    await user.click(screen.getByRole('button', { name: 'Send the link' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(server.mailTo(email)).toEqual([]);
  });

  it('says a short new password is too short, at its field, and the link still works afterwards', async () => {
    const email = await verifiedAccount(server);
    const path = await resetLinkPath(email);
    const { user } = renderRoute(path);

    await user.type(await screen.findByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const problem = await screen.findByRole('alert');
    expect(within(problem).getByRole('heading', { name: 'The password is too short' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInvalid();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('heading', { name: 'Your password is changed' })).toBeInTheDocument();
  });

  it('refuses a link used once already and offers to ask for a new one', async () => {
    const email = await verifiedAccount(server);
    const path = await resetLinkPath(email);
    const first = renderRoute(path);
    await first.user.type(await screen.findByLabelText('New password'), NEW_PASSWORD);
    await first.user.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByRole('heading', { name: 'Your password is changed' });
    first.unmount();

    const { user } = renderRoute(path);
    await user.type(await screen.findByLabelText('New password'), `${NEW_PASSWORD} again`);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const problem = await screen.findByRole('alert');
    expect(within(problem).getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
    const client = createClient({ baseUrl: server.url, maxRetries: 0 });
    await expect(client.auth.login({ email, password: NEW_PASSWORD })).resolves.toMatchObject({ email });
  });
});
