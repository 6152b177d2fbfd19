import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { formatDateTime } from '../../i18n/format.js';
import { renderProfilePage, signedInProfile } from '../../testing/profile-fixture.js';
import { renderComponent } from '../../testing/render-page.js';
import { PausedBadge } from './paused-badge.js';
import ProfilesPage from './profiles.page.js';
import SettingsPage from './settings.page.js';

const fx = signedInProfile('Kids');

/** Pauses the fixture's profile for an hour through the API; returns the end the API stored. */
async function pausedForAnHour(): Promise<string> {
  const profile = await fx.client.profiles.get(fx.profileId);
  return (await fx.client.profiles.pause(fx.profileId, 60, { ifMatch: profile.version })).paused_until;
}

describe(PausedBadge.name, () => {
  it('marks a paused profile in the list with its end in local time, and only that one', async () => {
    const until = await pausedForAnHour();
    await fx.client.profiles.create({ name: 'Office' });
    renderComponent(
      <Route path="/profiles">
        <ProfilesPage />
      </Route>,
      { path: '/profiles' },
    );
    const list = await screen.findByRole('list', { name: 'Your profiles' });
    const kids = within(list).getByRole('link', { name: 'Kids' }).closest('li') as HTMLElement;
    const office = within(list).getByRole('link', { name: 'Office' }).closest('li') as HTMLElement;
    expect(within(kids).getByText('Paused')).toHaveTextContent(`Paused until ${formatDateTime(until)}`);
    expect(within(kids).getByText(`until ${formatDateTime(until)}`)).toHaveAttribute('datetime', until);
    expect(within(office).queryByText(/Paused/)).not.toBeInTheDocument();
  });

  it('shows the badge beside the profile’s heading on its pages, the heading keeping its own name', async () => {
    const until = await pausedForAnHour();
    renderProfilePage(<SettingsPage />, fx.profileId, '/settings');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(heading.parentElement).toHaveTextContent(`Paused until ${formatDateTime(until)}`);
  });

  it('shows nothing for a profile that is not paused, nor for a pause that has ended', async () => {
    renderProfilePage(<SettingsPage />, fx.profileId, '/settings');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(heading.parentElement).not.toHaveTextContent(/Paused/);
    renderComponent(<PausedBadge profile={{ paused_until: new Date(Date.now() - 1000).toISOString() }} />);
    expect(screen.queryByText(/Paused/)).not.toBeInTheDocument();
  });

  it('goes by itself when the pause ends, without a new read', async () => {
    renderComponent(<PausedBadge profile={{ paused_until: new Date(Date.now() + 800).toISOString() }} />);
    expect(screen.getByText(/^Paused/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/^Paused/)).not.toBeInTheDocument(), { timeout: 3000 });
  });
});
