import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfilePage, signedInProfile } from '../../testing/profile-fixture.js';
import SettingsPage from './settings.page.js';

const fx = signedInProfile();

function renderSettings() {
  return renderProfilePage(<SettingsPage />, fx.profileId, '/settings');
}

describe('Settings page', () => {
  it('shows the API’s 422 at the field and in the summary, and stores nothing', async () => {
    const { user } = renderSettings();
    const retention = await screen.findByRole('textbox', { name: 'Cloud log retention (days)' });
    await user.clear(retention);
    await user.type(retention, '400');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('heading', { name: 'Some answers need changing' })).toBeInTheDocument();
    expect(retention).toHaveAttribute('aria-invalid', 'true');
    expect(retention).toHaveAccessibleDescription(/must be an integer from 1 to 90/);
    expect((await fx.client.profiles.get(fx.profileId)).settings.retention_days).toBe(30);
  });

  it('switches a setting at once without losing what was typed in the form', async () => {
    const { user } = renderSettings();
    const retention = await screen.findByRole('textbox', { name: 'Cloud log retention (days)' });
    await user.clear(retention);
    await user.type(retention, '21');
    const logs = screen.getByRole('switch', { name: 'Keep query logs' });
    const was = (logs as HTMLInputElement).checked;
    await user.click(logs);
    const notices = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(notices).findByText(`Keep query logs: ${was ? 'off' : 'on'}.`)).toBeInTheDocument();
    expect(retention).toHaveValue('21');
    expect((await fx.client.profiles.get(fx.profileId)).settings).toMatchObject({
      logs_enabled: !was,
      retention_days: 30,
    });
  });

  it('shows the profile’s time zone, suggests zone names, and saves a new one (issue 38)', async () => {
    const { user } = renderSettings();
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('UTC');
    const suggestions = document.getElementById(zone.getAttribute('list') ?? '');
    expect(suggestions?.querySelector('option[value="Europe/Berlin"]')).not.toBeNull();
    await user.clear(zone);
    await user.type(zone, 'Australia/Lord_Howe');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await expect
      .poll(async () => (await fx.client.profiles.get(fx.profileId)).settings.time_zone)
      .toBe('Australia/Lord_Howe');
  });

  it('shows the API’s 422 at the time zone for a zone it does not know', async () => {
    const { user } = renderSettings();
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'Mars/Olympus_Mons');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByRole('alert');
    expect(zone).toHaveAttribute('aria-invalid', 'true');
    expect(zone).toHaveAccessibleDescription(/must be an IANA time zone/);
    expect((await fx.client.profiles.get(fx.profileId)).settings.time_zone).toBe('UTC');
  });
});
