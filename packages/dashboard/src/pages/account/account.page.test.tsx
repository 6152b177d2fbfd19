import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());

describe('Account overview page', () => {
  it('names the account, its plan and its second factor in words, not as the API spells them', async () => {
    const { email } = await signedIn(server);
    renderRoute('/account');
    await screen.findByRole('heading', { level: 1, name: 'Your account' });
    const facts = await screen.findByText(email);
    const list = facts.closest('dl') as HTMLElement;
    const pairs = [...list.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    expect(pairs.slice(0, 3)).toEqual([
      ['Email address', `${email} (verified)`],
      ['Plan', 'Free'],
      ['Second factor', 'Off'],
    ]);
    expect(within(list).getByRole('time')).toHaveAttribute('datetime');
  });

  it('saves the email alert at once, says so where the person looks, and stores it', async () => {
    const { client } = await signedIn(server);
    const { user } = renderRoute('/account');
    const alert = await screen.findByRole('checkbox', { name: /self-hosted node goes offline/ });
    const before = (await client.auth.preferences.get()).alerts.node_offline;

    await user.click(alert);

    const notices = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(notices).findByText('Email alerts saved.')).toBeInTheDocument();
    expect((await client.auth.preferences.get()).alerts.node_offline).toBe(!before);
  });
});
