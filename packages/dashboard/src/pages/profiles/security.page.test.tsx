import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { NotifyProvider } from '../../feedback/notify.js';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import SecurityPage from './security.page.js';

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

/** The security page of the profile, with the notices the app shows in the viewport. */
function renderSecurity() {
  return renderComponent(
    <NotifyProvider>
      <Route path="/profiles/:id/security">
        <SecurityPage />
      </Route>
    </NotifyProvider>,
    { path: `/profiles/${profileId}/security` },
  );
}

const notices = () => screen.getByRole('region', { name: 'Notifications' });

describe('Security page', () => {
  it('stores a switch at once and says so, the focus staying on the switch', async () => {
    const { user } = renderSecurity();
    const nrd = await screen.findByRole('switch', { name: 'Block newly registered domains' });
    expect(nrd).not.toBeChecked();
    await user.click(nrd);
    expect(await screen.findByRole('switch', { name: 'Block newly registered domains', checked: true })).toBe(
      nrd,
    );
    expect(await within(notices()).findByText('Block newly registered domains: on.')).toBeInTheDocument();
    expect(nrd).toHaveFocus();
    expect((await client.profiles.get(profileId)).security.nrd).toBe(true);
  });

  it('undoes a switch written against a version changed elsewhere (412), shows what is stored, and says why', async () => {
    const { user } = renderSecurity();
    const nrd = await screen.findByRole('switch', { name: 'Block newly registered domains' });
    await client.profiles.update(profileId, { security: { typosquat: true } });
    await user.click(nrd);
    expect(
      await within(notices()).findByText(/^Block newly registered domains was not changed: Someone changed/),
    ).toBeInTheDocument();
    expect(nrd).not.toBeChecked();
    expect(
      await screen.findByRole('switch', { name: 'Block typo-squatting', checked: true }),
    ).toBeInTheDocument();
    expect((await client.profiles.get(profileId)).security).toMatchObject({ nrd: false, typosquat: true });
  });
});
