import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

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

async function deviceId(): Promise<string> {
  const [device] = await client.profiles.devices.list(profileId).toArray();
  if (device === undefined) throw new Error('no device stored');
  return device.id;
}

describe('Devices page', () => {
  it('says when no device has been seen yet', async () => {
    renderRoute(`/profiles/${profileId}/devices`);
    expect(await screen.findByText('No device has been seen yet.')).toBeInTheDocument();
  });

  it('renames, classifies and annotates a device the resolvers saw; the card shows what was saved', async () => {
    await server.seeDevice(profileId, 'kids-tablet');
    const { user } = renderRoute(`/profiles/${profileId}/devices`);
    const card = await screen.findByRole('listitem', { name: 'kids-tablet' });
    expect(card).toHaveTextContent('DoH (named in the DoH path)');

    await user.click(within(card).getByRole('button', { name: 'Edit kids-tablet' }));
    const form = within(card).getByRole('form', { name: 'Edit kids-tablet' });
    expect(within(form).getByLabelText('Name shown')).toHaveFocus();
    await user.type(within(form).getByLabelText('Name shown'), "Sam's tablet");
    await user.selectOptions(within(form).getByLabelText('Kind'), 'Phone');
    await user.type(within(form).getByLabelText('Notes'), 'Bedtime at nine');
    await user.click(within(form).getByRole('button', { name: 'Save device' }));

    const saved = await screen.findByRole('listitem', { name: "Sam's tablet" });
    expect(saved).toHaveTextContent('Phone');
    expect(saved).toHaveTextContent('Bedtime at nine');
    expect(within(saved).queryByRole('form')).not.toBeInTheDocument();
    expect(await client.profiles.devices.get(profileId, await deviceId())).toMatchObject({
      display_name: "Sam's tablet",
      kind: 'phone',
      notes: 'Bedtime at nine',
    });
  });

  it('shows the 422 of a name too long at its field, keeps the form open and stores nothing', async () => {
    await server.seeDevice(profileId, 'living-room-tv');
    const { user } = renderRoute(`/profiles/${profileId}/devices`);
    const card = await screen.findByRole('listitem', { name: 'living-room-tv' });
    await user.click(within(card).getByRole('button', { name: 'Edit living-room-tv' }));
    await user.click(within(card).getByLabelText('Name shown'));
    await user.paste('x'.repeat(65));
    await user.click(within(card).getByRole('button', { name: 'Save device' }));

    const summary = await within(card).findByRole('alert');
    expect(
      within(summary).getByRole('link', { name: /^Name shown must be at most 64 characters/ }),
    ).toBeVisible();
    expect(within(card).getByLabelText('Name shown')).toBeInvalid();
    expect(within(card).getByLabelText('Name shown')).toHaveAccessibleDescription(
      /must be at most 64 characters/,
    );
    expect((await client.profiles.devices.get(profileId, await deviceId())).display_name).toBeNull();
  });

  it('forgets a device once the person confirms', async () => {
    await server.seeDevice(profileId, 'old-laptop');
    const { user } = renderRoute(`/profiles/${profileId}/devices`);
    const card = await screen.findByRole('listitem', { name: 'old-laptop' });

    await user.click(within(card).getByRole('button', { name: 'Forget old-laptop' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, forget old-laptop' }));

    expect(await screen.findByText('No device has been seen yet.')).toBeInTheDocument();
    expect(await client.profiles.devices.list(profileId).toArray()).toEqual([]);
  });
});
