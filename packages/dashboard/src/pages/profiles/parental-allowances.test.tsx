import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInProfile } from '../../testing/profile-fixture.js';
import { renderRoute } from '../../testing/render-page.js';

const fx = signedInProfile();

describe('Parental page: unblock a blocked service for a while (issue 38)', () => {
  it('offers "Unblock … for" only for blocked services, and stores a timed allowance of the one chosen', async () => {
    await fx.client.profiles.update(fx.profileId, { parental: { services: ['tiktok'] } });
    const { user } = renderRoute(`/profiles/${fx.profileId}/parental`);
    const section = await screen.findByRole('region', { name: 'Unblock a service for a while' });
    const groups = within(section).getAllByRole('group');
    expect(groups.map((group) => group.querySelector('legend')?.textContent)).toEqual(['Unblock TikTok for']);

    const before = Date.now();
    await user.click(within(groups[0] as HTMLElement).getByRole('button', { name: '1 hour' }));

    expect(await within(section).findByRole('status')).toHaveTextContent(/^TikTok is allowed until /);
    const [stored] = await fx.client.profiles.allowances.list(fx.profileId);
    expect(stored).toMatchObject({ service: 'tiktok', domain: null });
    const minutes = (Date.parse(stored?.expires_at ?? '') - before) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60.1);
  });

  it('shows no such section while no service is blocked', async () => {
    renderRoute(`/profiles/${fx.profileId}/parental`);
    expect(await screen.findByRole('list', { name: 'Block these services' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Unblock a service for a while' })).not.toBeInTheDocument();
  });
});
