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

/** The section of one list of rules, found by its heading ("Denied names (0)"). */
function section(title: string): HTMLElement {
  const heading = screen.getByRole('heading', { level: 2, name: new RegExp(`^${title}`) });
  const found = heading.closest('section');
  if (found === null) throw new Error(`no section around ${title}`);
  return found;
}

describe('Rules page', () => {
  it('adds a denied name, lists it, and says so; the same name again is "already there", not added', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/rules`);
    await screen.findByRole('heading', { level: 2, name: 'Denied names (0)' });
    const denied = section('Denied names');

    await user.type(within(denied).getByLabelText('Add to denied names'), 'blocked.example');
    await user.click(within(denied).getByRole('button', { name: 'Add to denied names' }));

    expect(await within(denied).findByRole('status')).toHaveTextContent('Added 1 rule.');
    expect(within(denied).getByRole('list', { name: 'Denied names' })).toHaveTextContent('blocked.example');
    expect(within(denied).getByLabelText('Add to denied names')).toHaveValue('');
    expect((await client.profiles.rules.get(profileId)).deny).toEqual(['blocked.example']);

    await user.type(within(denied).getByLabelText('Add to denied names'), 'blocked.example');
    await user.click(within(denied).getByRole('button', { name: 'Add to denied names' }));
    expect(
      await within(denied).findByText('blocked.example was already there; nothing was added.'),
    ).toBeInTheDocument();
    expect((await client.profiles.rules.get(profileId)).deny).toEqual(['blocked.example']);
  });

  it('points at the pasted line the API refused, keeps the text, and stores nothing', async () => {
    const { user } = renderRoute(`/profiles/${profileId}/rules`);
    await screen.findByRole('heading', { level: 2, name: 'Denied names (0)' });
    const denied = section('Denied names');
    const box = within(denied).getByLabelText('Add to denied names');

    await user.type(box, 'fine.example{Enter}not a domain!');
    await user.click(within(denied).getByRole('button', { name: 'Add to denied names' }));

    const lines = await within(denied).findByRole('list', { name: 'Lines to correct in Denied names' });
    expect(within(lines).getByRole('button', { name: 'Line 2' })).toBeInTheDocument();
    expect(lines).toHaveTextContent('not a domain!');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveFocus();
    expect(box).toHaveValue('fine.example\nnot a domain!');
    expect((await client.profiles.rules.get(profileId)).deny).toEqual([]);
  });

  it("shows another organisation's profile as not found", async () => {
    // Another account signs in on the page; the profile stays its owner's.
    await signedIn(server);
    renderRoute(`/profiles/${profileId}/rules`);

    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Denied names/ })).not.toBeInTheDocument();
  });
});
