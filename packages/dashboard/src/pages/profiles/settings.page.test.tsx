import { screen, waitFor, within } from '@testing-library/react';
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

  it('meets a 412 (changed meanwhile): says the save was not stored and the page read the profile again, asks for no reload', async () => {
    const { user } = renderSettings();
    const retention = await screen.findByRole('textbox', { name: 'Cloud log retention (days)' });
    await user.clear(retention);
    await user.type(retention, '21');
    // Another client changes the profile while the form is being filled in.
    await fx.client.profiles.update(fx.profileId, { settings: { retention_days: 45 } });
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    const problem = await screen.findByRole('alert', { name: 'Someone else changed this meanwhile' });
    expect(problem).toHaveTextContent(
      'Your save was not stored, so nothing was overwritten. The page has read the profile again.',
    );
    expect(problem).not.toHaveTextContent(/reload/i);
    expect(
      await within(problem).findByText('Cloud log retention (days): you entered “21”; stored now: “45”.'),
    ).toBeInTheDocument();
    // The form shows the stored values, read again without a reload (it is a new form, keyed on them).
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Cloud log retention (days)' })).toHaveValue('45'),
    );
    expect((await fx.client.profiles.get(fx.profileId)).settings.retention_days).toBe(45);
  });

  it('deleting a profile changed meanwhile (412) deletes nothing, reads it again, and the next try deletes it', async () => {
    const { user } = renderSettings();
    await screen.findByRole('heading', { name: 'Delete this profile' });
    await fx.client.profiles.update(fx.profileId, { name: 'Renamed meanwhile' });
    await user.click(screen.getByRole('button', { name: 'Delete profile' }));
    await user.click(screen.getByRole('button', { name: /^Yes, delete/ }));

    const problem = await screen.findByRole('alert', { name: 'Someone else changed this meanwhile' });
    expect(problem).toHaveTextContent('Check what is stored now, then make your change again');
    expect(problem).not.toHaveTextContent(/reload/i);
    expect((await fx.client.profiles.get(fx.profileId)).name).toBe('Renamed meanwhile');
    // Read again: the confirmation names the profile as it is stored now, and deleting it now works.
    const again = await screen.findByRole('button', { name: 'Yes, delete Renamed meanwhile' });
    await user.click(again);
    await waitFor(() => expect(window.location.pathname).toBe('/profiles'));
    await expect(fx.client.profiles.get(fx.profileId)).rejects.toMatchObject({ status: 404 });
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
