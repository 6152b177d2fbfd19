import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import ProfilesPage from './profiles.page.js';

let server: InProcessApi;
let client: SvcClient;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(async () => {
  ({ client } = await signedIn(server));
});

describe('Profiles page', () => {
  it('proposes the browser’s time zone for a new profile, and creates it in the zone chosen (issue 38)', async () => {
    const { user } = renderComponent(
      <Route path="/profiles">
        <ProfilesPage />
      </Route>,
      { path: '/profiles' },
    );
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Kids');
    await user.clear(zone);
    await user.type(zone, 'America/New_York');
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await expect
      .poll(async () => (await client.profiles.list().toArray()).map((profile) => profile.settings.time_zone))
      .toEqual(['America/New_York']);
  });
});
