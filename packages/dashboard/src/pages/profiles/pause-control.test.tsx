import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { NotifyProvider } from '../../feedback/notify.js';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import { minutesUntilMidnight } from './pause-control.js';
import ProfileOverviewPage from './profile-overview.page.js';

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

function renderOverview() {
  return renderComponent(
    <NotifyProvider>
      <Route path="/profiles/:id">
        <ProfileOverviewPage />
      </Route>
    </NotifyProvider>,
    { path: `/profiles/${profileId}` },
  );
}

const notices = () => screen.getByRole('region', { name: 'Notifications' });

describe('Pause filtering on the profile overview', () => {
  it('pauses for an hour, shows until when, and resumes', async () => {
    const { user } = renderOverview();
    const pauseSection = await screen.findByRole('region', { name: 'Pause filtering' });
    const before = Date.now();
    await user.click(within(pauseSection).getByRole('button', { name: '1 hour' }));
    expect(await within(notices()).findByText(/^Filtering paused until /)).toBeInTheDocument();
    expect(await within(pauseSection).findByRole('status')).toHaveTextContent(
      /^Filtering is paused until .+ \(in (1 hour|59 minutes)\)\.$/,
    );
    const stored = (await client.profiles.get(profileId)).paused_until;
    expect(Date.parse(stored ?? '') - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(Date.parse(stored ?? '') - before).toBeLessThanOrEqual(3_600_000 + 5_000);

    await user.click(within(pauseSection).getByRole('button', { name: 'Resume filtering' }));
    expect(await within(notices()).findByText('Filtering resumed.')).toBeInTheDocument();
    expect(await within(pauseSection).findByRole('button', { name: '15 minutes' })).toBeInTheDocument();
    expect((await client.profiles.get(profileId)).paused_until).toBeNull();
  });

  it('shows a pause made elsewhere, and says so when resuming fails', async () => {
    await client.profiles.pause(profileId, 15);
    const { user } = renderOverview();
    const pauseSection = await screen.findByRole('region', { name: 'Pause filtering' });
    expect(await within(pauseSection).findByRole('status')).toHaveTextContent(/\(in 1[45] minutes\)/);
    await client.profiles.delete(profileId);
    await user.click(within(pauseSection).getByRole('button', { name: 'Resume filtering' }));
    expect(await within(notices()).findByText(/^Filtering was not changed: /)).toBeInTheDocument();
  });

  it('offers "until midnight" within the API’s 1 to 1440 minutes', () => {
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 23, 59, 30))).toBe(1);
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 0, 0, 0))).toBe(1440);
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 18, 0, 0))).toBe(360);
  });
});
