import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfilePage, signedInProfile } from '../../testing/profile-fixture.js';
import { minutesUntilMidnight } from './pause-control.js';
import ProfileOverviewPage from './profile-overview.page.js';

const fx = signedInProfile();

function renderOverview() {
  return renderProfilePage(<ProfileOverviewPage />, fx.profileId);
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
    const stored = (await fx.client.profiles.get(fx.profileId)).paused_until;
    expect(Date.parse(stored ?? '') - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(Date.parse(stored ?? '') - before).toBeLessThanOrEqual(3_600_000 + 5_000);

    await user.click(within(pauseSection).getByRole('button', { name: 'Resume filtering' }));
    expect(await within(notices()).findByText('Filtering resumed.')).toBeInTheDocument();
    expect(await within(pauseSection).findByRole('button', { name: '15 minutes' })).toBeInTheDocument();
    expect((await fx.client.profiles.get(fx.profileId)).paused_until).toBeNull();
  });

  it('shows a pause made elsewhere, and says so when resuming fails', async () => {
    await fx.client.profiles.pause(fx.profileId, 15);
    const { user } = renderOverview();
    const pauseSection = await screen.findByRole('region', { name: 'Pause filtering' });
    expect(await within(pauseSection).findByRole('status')).toHaveTextContent(/\(in 1[45] minutes\)/);
    await fx.client.profiles.delete(fx.profileId);
    await user.click(within(pauseSection).getByRole('button', { name: 'Resume filtering' }));
    expect(await within(notices()).findByText(/^Filtering was not changed: /)).toBeInTheDocument();
  });

  it('offers "until midnight" within the API’s 1 to 1440 minutes', () => {
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 23, 59, 30))).toBe(1);
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 0, 0, 0))).toBe(1440);
    expect(minutesUntilMidnight(new Date(2026, 10, 28, 18, 0, 0))).toBe(360);
  });
});
