import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPages, PASSWORD, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let email: string;
let client: SvcClient;

beforeAll(async () => {
  server = await startInProcessApi();
  email = await verifiedAccount(server);
});
afterAll(() => server.close());
beforeEach(() => {
  client = connectPages(server);
});

describe('Sign-in page', () => {
  it('signs in with email and password and opens the page asked for in ?next=', async () => {
    const { user, location } = renderRoute('/login?next=%2Faccount%2Ftokens');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'API tokens' })).toBeInTheDocument();
    expect(location()).toBe('/account/tokens');
  });

  it('says the address or the password is wrong without saying which, keeps the address and moves focus to the message', async () => {
    const { user, location } = renderRoute('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), 'not the password at all');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const problem = await screen.findByRole('alert');
    expect(
      within(problem).getByRole('heading', { name: 'Email address or password is wrong' }),
    ).toBeVisible();
    expect(problem).toHaveFocus();
    expect(screen.getByLabelText('Email address')).toHaveValue(email);
    expect(location()).toBe('/login');
    expect(client.sessionCookie()).toBeUndefined();
  });

  it('sends a signed-out visitor of a signed-in page to sign in, and back there afterwards', async () => {
    const { user, location } = renderRoute('/account/tokens');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(location()).toBe('/login?next=%2Faccount%2Ftokens');

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'API tokens' })).toBeInTheDocument();
  });
});
