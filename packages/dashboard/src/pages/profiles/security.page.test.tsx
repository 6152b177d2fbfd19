import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfilePage, signedInProfile } from '../../testing/profile-fixture.js';
import SecurityPage from './security.page.js';

const fx = signedInProfile();

/** The security page of the profile, with the notices the app shows in the viewport. */
function renderSecurity() {
  return renderProfilePage(<SecurityPage />, fx.profileId, '/security');
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
    expect((await fx.client.profiles.get(fx.profileId)).security.nrd).toBe(true);
  });

  it('undoes a switch written against a version changed elsewhere (412), shows what is stored, and says why', async () => {
    const { user } = renderSecurity();
    const nrd = await screen.findByRole('switch', { name: 'Block newly registered domains' });
    await fx.client.profiles.update(fx.profileId, { security: { typosquat: true } });
    await user.click(nrd);
    expect(
      await within(notices()).findByText(/^Block newly registered domains was not changed: Someone changed/),
    ).toBeInTheDocument();
    expect(nrd).not.toBeChecked();
    expect(
      await screen.findByRole('switch', { name: 'Block typo-squatting', checked: true }),
    ).toBeInTheDocument();
    expect((await fx.client.profiles.get(fx.profileId)).security).toMatchObject({
      nrd: false,
      typosquat: true,
    });
  });
});
