import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInProfile } from '../../testing/profile-fixture.js';
import { renderRoute } from '../../testing/render-page.js';

const fx = signedInProfile();

const HOMEWORK = { name: 'homework', windows: [{ days: ['mon' as const], start: '16:00', end: '18:00' }] };
const NIGHTS = { name: 'nights', windows: [{ days: ['sun' as const], start: '21:00', end: '07:00' }] };

describe('Schedules page: bedtime', () => {
  it('makes one schedule the bedtime, then none, keeping the assignments', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [HOMEWORK, NIGHTS], {
      assignments: [
        { target: { kind: 'deny', pattern: 'games.example' }, schedule: 'homework', mode: 'only_during' },
      ],
    });
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    const bedtime = await screen.findByRole('form', { name: 'Bedtime' });
    expect(within(bedtime).getByLabelText('Bedtime schedule')).toHaveValue('');
    await user.selectOptions(within(bedtime).getByLabelText('Bedtime schedule'), 'nights');
    await user.click(within(bedtime).getByRole('button', { name: 'Save bedtime' }));

    expect(await screen.findByText('Bedtime is schedule nights now.')).toBeInTheDocument();
    const stored = await fx.client.profiles.schedules.getAll(fx.profileId);
    expect(stored.bedtime).toBe('nights');
    expect(stored.assignments).toHaveLength(1);

    const again = screen.getByRole('form', { name: 'Bedtime' });
    await user.selectOptions(within(again).getByLabelText('Bedtime schedule'), '');
    await user.click(within(again).getByRole('button', { name: 'Save bedtime' }));
    expect(await screen.findByText('The profile has no bedtime now.')).toBeInTheDocument();
    expect((await fx.client.profiles.schedules.getAll(fx.profileId)).bedtime).toBeNull();
  });

  it('offers no bedtime while the profile has no schedule', async () => {
    renderRoute(`/profiles/${fx.profileId}/schedules`);
    expect(await screen.findByText('Add a schedule first: limits and lifts follow one.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Bedtime' })).not.toBeInTheDocument();
  });
});

describe('Schedules page: limits and lifts', () => {
  it('adds a deny rule blocked except during a schedule, lists it in words, and removes it', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [HOMEWORK, NIGHTS], { bedtime: 'nights' });
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    expect(await screen.findByText('No item follows a schedule yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a limit or lift' }));
    const adding = screen.getByRole('form', { name: 'Add a limit or lift' });
    await user.selectOptions(within(adding).getByLabelText('Kind of item'), 'deny');
    await user.type(within(adding).getByLabelText('Deny rule'), 'games.example');
    await user.selectOptions(within(adding).getByLabelText('Schedule'), 'homework');
    await user.selectOptions(within(adding).getByLabelText('How'), 'lifted_during');
    await user.click(within(adding).getByRole('button', { name: 'Add a limit or lift' }));

    expect(await screen.findByText('Deny rule games.example follows its schedule now.')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'The limits and lifts' });
    expect(list).toHaveTextContent('Deny rule games.example: blocked except during homework');
    expect(await fx.client.profiles.schedules.getAll(fx.profileId)).toMatchObject({
      bedtime: 'nights',
      assignments: [
        { target: { kind: 'deny', pattern: 'games.example' }, schedule: 'homework', mode: 'lifted_during' },
      ],
    });

    await user.click(
      within(list).getByRole('button', { name: 'Remove the limit on Deny rule games.example' }),
    );
    expect(
      await screen.findByText('Deny rule games.example no longer follows a schedule.'),
    ).toBeInTheDocument();
    expect(await fx.client.profiles.schedules.getAll(fx.profileId)).toMatchObject({
      bedtime: 'nights',
      assignments: [],
    });
  });

  it('shows the 422 of a malformed deny rule at its field, and stores nothing', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [HOMEWORK]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Add a limit or lift' }));
    const adding = screen.getByRole('form', { name: 'Add a limit or lift' });
    await user.selectOptions(within(adding).getByLabelText('Kind of item'), 'deny');
    await user.type(within(adding).getByLabelText('Deny rule'), 'not a rule!');
    await user.click(within(adding).getByRole('button', { name: 'Add a limit or lift' }));

    const summary = await within(adding).findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Deny rule/ })).toHaveAttribute(
      'href',
      '#field-assignments-0-target-pattern',
    );
    expect(within(adding).getByLabelText('Deny rule')).toBeInvalid();
    expect((await fx.client.profiles.schedules.getAll(fx.profileId)).assignments).toEqual([]);
  });

  it('cancels an addition without writing', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [HOMEWORK]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Add a limit or lift' }));
    const section = screen.getByRole('region', { name: 'Limits and lifts' });
    await user.click(within(section).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Add a limit or lift' })).not.toBeInTheDocument();
    expect((await fx.client.profiles.schedules.getAll(fx.profileId)).assignments).toEqual([]);
  });
});

describe('Schedules page: running allowances', () => {
  it('lists a running allowance with its time left, and ends it', async () => {
    await fx.client.profiles.allowances.create(fx.profileId, { domain: 'games.example', minutes: 60 });
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    const running = await screen.findByRole('list', { name: 'Running allowances' });
    expect(running).toHaveTextContent(/games\.example: until .* \(ends in (60 minutes|59 minutes|1 hour)\)/);

    await user.click(within(running).getByRole('button', { name: 'End the allowance of games.example' }));
    expect(await screen.findByText('The allowance of games.example has ended.')).toBeInTheDocument();
    expect(await screen.findByText('No allowance is running.')).toBeInTheDocument();
    expect(await fx.client.profiles.allowances.list(fx.profileId)).toEqual([]);
  });
});
