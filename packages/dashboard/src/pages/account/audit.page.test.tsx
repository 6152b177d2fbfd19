import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';
import { actorOf } from './audit.page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());

describe('Audit log page', () => {
  it('names who did what by email and in words, never by raw ids or action codes (issue 36)', async () => {
    const { email, client } = await signedIn(server);
    await client.auth.preferences.update({ alerts: { node_offline: false } });
    renderRoute('/account/audit');
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    const row = (await within(table).findByText('Preferences changed')).closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText(email)).toBeInTheDocument();
    expect(table.textContent).not.toMatch(/\b(account|token):[0-9a-f-]{36}/);
    expect(table.textContent).not.toContain('account.preferences_updated');
  });
});

describe(actorOf.name, () => {
  const id = '5b0c3f36-3b3c-4c43-9d43-0a4c6fe6a7b1';
  it('marks a change made through an API token', () => {
    expect(actorOf({ actor: `token:${id}`, actor_email: 'a@example.test', action: 'profile.deleted' })).toBe(
      'a@example.test (API token)',
    );
  });
  it('speaks of a node, an operator or someone gone, when the API names no email', () => {
    expect(actorOf({ actor: `node:${id}`, actor_email: null, action: 'node.enrolled' })).toBe('A node');
    expect(actorOf({ actor: `token:${id}`, actor_email: null, action: 'account.deletion_canceled' })).toBe(
      'The svc operators',
    );
    expect(actorOf({ actor: `account:${id}`, actor_email: null, action: 'token.created' })).toBe(
      'Someone no longer here',
    );
  });
});
