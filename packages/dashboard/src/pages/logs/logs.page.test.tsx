import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, waitFor, within } from '@testing-library/react';
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

/** Opens the logs page in search mode (no live stream) and unfolds its filters. */
async function openFilters(query = 'mode=search') {
  const page = renderRoute(`/profiles/${profileId}/logs?${query}`);
  const summary = await screen.findByText('Filters', { selector: 'summary' });
  if (!summary.parentElement?.hasAttribute('open')) await page.user.click(summary);
  return { ...page, form: await screen.findByRole('form', { name: 'Log filters' }) };
}

describe('Logs page filters', () => {
  it('applies the chosen filters: the address holds them and the form shows them again', async () => {
    await server.seeDevice(profileId, 'kids-tablet');
    const [device] = await client.profiles.devices.list(profileId).toArray();
    const { user, form, location } = await openFilters();

    await user.click(within(form).getByRole('checkbox', { name: 'Blocked' }));
    await user.type(within(form).getByRole('textbox', { name: 'Domain' }), 'ads');
    await user.type(within(form).getByRole('textbox', { name: 'Query types' }), 'AAAA, 65');
    await user.selectOptions(within(form).getByRole('listbox', { name: 'Devices' }), 'kids-tablet');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));

    // The in-process API has no log store: the search it runs answers 501, which the page shows as such.
    await waitFor(() => expect(location()).toContain('status=blocked'));
    const applied = new URLSearchParams(location().split('?')[1]);
    expect(applied.get('mode')).toBe('search');
    expect(applied.getAll('status')).toEqual(['blocked']);
    expect(applied.get('qname')).toBe('ads');
    expect(applied.getAll('qtype')).toEqual(['AAAA', '65']);
    expect(applied.getAll('device')).toEqual([device?.id]);
    // The form shows what the address holds, so that a reload or a shared link keeps the filters.
    const reopened = screen.getByRole('form', { name: 'Log filters' });
    expect(within(reopened).getByRole('checkbox', { name: 'Blocked' })).toBeChecked();
    expect(within(reopened).getByRole('textbox', { name: 'Domain' })).toHaveValue('ads');
  });

  it('names statuses, devices and lists in words, never by their codes or ids', async () => {
    await server.seeDevice(profileId, 'kids-tablet');
    const { form } = await openFilters();

    const statuses = within(within(form).getByRole('group', { name: 'Status' })).getAllByRole('checkbox');
    expect(statuses.map((box) => box.getAttribute('value'))).toEqual([
      'allowed',
      'blocked',
      'rewritten',
      'error',
    ]);
    expect(statuses.map((box) => (box as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      'Allowed',
      'Blocked',
      'Rewritten',
      'Failed',
    ]);
    const devices = within(form).getByRole('listbox', { name: 'Devices' });
    expect(await within(devices).findByRole('option', { name: 'kids-tablet' })).toBeInTheDocument();
    const lists = within(form).getByRole('listbox', { name: 'Blocklists' });
    const options = await within(lists).findAllByRole('option');
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) expect(option.textContent).not.toMatch(/^\d+$/);
    expect(within(form).getByRole('radio', { name: 'Search: earlier queries, newest first' })).toBeChecked();
  });

  it('shows the API’s refusal of a filter at its field, by the field’s label', async () => {
    const { user, form } = await openFilters();
    await user.type(within(form).getByRole('textbox', { name: 'Client IP address' }), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));

    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Client IP address/ })).toBeInTheDocument();
    expect(summary).not.toHaveTextContent('client_ip');
    const field = screen.getByRole('textbox', { name: 'Client IP address' });
    expect(field).toBeInvalid();
  });
});
