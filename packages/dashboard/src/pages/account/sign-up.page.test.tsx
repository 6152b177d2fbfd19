import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPages, newEmail, PASSWORD, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

describe('Sign-up page, open sign-up', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    server = await startInProcessApi({ SVC_SIGNUP_MODE: 'open' });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    connectPages(server);
  });

  it('creates the account and says to check the email, which holds the verification link', async () => {
    const email = newEmail('newcomer');
    const { user } = renderRoute('/signup');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const done = await screen.findByRole('status');
    expect(within(done).getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(within(done).getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(await server.linkFromEmail(email, /\/verify-email\?token=/)).toMatch(/token=/);
  });

  it('answers an address that already has an account exactly as a new one, so the page tells no one who is registered', async () => {
    const email = await verifiedAccount(server);
    const { user } = renderRoute('/signup');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
  });

  it('says a short password is too short, at the password field, and keeps the address', async () => {
    const email = newEmail('short');
    const { user } = renderRoute('/signup');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), 'too short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const problem = await screen.findByRole('alert');
    expect(problem).toHaveFocus();
    expect(within(problem).getByRole('heading', { name: 'The password is too short' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInvalid();
    expect(screen.getByLabelText('Email address')).toHaveValue(email);
    expect(server.mailTo(email)).toEqual([]);
  });

  it('shows the 422 of a malformed address at the address field', async () => {
    const { user } = renderRoute('/signup');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });

    await user.type(screen.getByLabelText('Email address'), 'not-an-address');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const problem = await screen.findByRole('alert');
    expect(within(problem).getByRole('link', { name: /^Email address/ })).toHaveAttribute(
      'href',
      '#field-email',
    );
    expect(screen.getByLabelText('Email address')).toBeInvalid();
  });
});

describe('Sign-up page, by invitation', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    server = await startInProcessApi({ SVC_SIGNUP_MODE: 'invite' });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    connectPages(server);
  });

  it('asks for the invite code, filled in from the link, and refuses a code that is not one', async () => {
    const email = newEmail('invited');
    const { user } = renderRoute('/signup?invite=not-a-real-code');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect(screen.getByText(/Signing up needs an invitation/)).toBeInTheDocument();
    expect(screen.getByLabelText('Invite code')).toHaveValue('not-a-real-code');

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const problem = await screen.findByRole('alert');
    expect(within(problem).getByRole('heading', { name: 'An invitation is needed' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Check your email' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Invite code')).toHaveValue('not-a-real-code');
    expect(server.mailTo(email)).toEqual([]);
  });
});

describe('Sign-up page, closed', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    server = await startInProcessApi({ SVC_SIGNUP_MODE: 'closed' });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    connectPages(server);
  });

  it('says signing up is closed and offers no form', async () => {
    renderRoute('/signup');
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });

    expect(screen.getByText(/Signing up is closed/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
  });
});
