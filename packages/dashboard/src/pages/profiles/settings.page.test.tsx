import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { NotifyProvider } from '../../feedback/notify.js';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import SettingsPage from './settings.page.js';

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

function renderSettings() {
  return renderComponent(
    <NotifyProvider>
      <Route path="/profiles/:id/settings">
        <SettingsPage />
      </Route>
    </NotifyProvider>,
    { path: `/profiles/${profileId}/settings` },
  );
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
    expect((await client.profiles.get(profileId)).settings.retention_days).toBe(30);
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
    expect((await client.profiles.get(profileId)).settings).toMatchObject({
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
      .poll(async () => (await client.profiles.get(profileId)).settings.time_zone)
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
    expect((await client.profiles.get(profileId)).settings.time_zone).toBe('UTC');
  });
});
