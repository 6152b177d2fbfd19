import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatWallTime } from '../../i18n/format.js';
import { signedInProfile } from '../../testing/profile-fixture.js';
import { renderRoute } from '../../testing/render-page.js';

const fx = signedInProfile();

/** The page's form to add or edit a schedule. */
function form(name: string): HTMLElement {
  return screen.getByRole('form', { name });
}

describe('Schedules page', () => {
  it('names the profile’s time zone and says when there is no schedule', async () => {
    await fx.client.profiles.update(fx.profileId, { settings: { time_zone: 'Europe/Berlin' } });
    renderRoute(`/profiles/${fx.profileId}/schedules`);
    expect(await screen.findByText('This profile has no schedule yet.')).toBeInTheDocument();
    expect(screen.getByText(/profile’s time zone, Europe\/Berlin/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change the time zone in Settings' })).toHaveAttribute(
      'href',
      `/profiles/${fx.profileId}/settings`,
    );
  });

  it('creates a schedule across midnight: says it ends the next day, stores it and lists it', async () => {
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Add a schedule' }));
    const adding = form('Add a schedule');
    await user.type(within(adding).getByLabelText('Name'), 'school-nights');
    for (const day of ['Sunday', 'Monday', 'Tuesday']) await user.click(within(adding).getByLabelText(day));
    await user.type(within(adding).getByLabelText('From'), '21:00');
    await user.type(within(adding).getByLabelText('Until'), '07:00');
    expect(within(adding).getByRole('status')).toHaveTextContent(
      `Ends the next day at ${formatWallTime('07:00')}`,
    );

    await user.click(within(adding).getByRole('button', { name: 'Save schedule' }));

    expect(await screen.findByText('Schedule school-nights is saved.')).toBeInTheDocument();
    const item = within(screen.getByRole('list', { name: 'The profile’s schedules' })).getByRole('listitem', {
      name: 'school-nights',
    });
    expect(item).toHaveTextContent('ends the next day');
    expect(await fx.client.profiles.schedules.get(fx.profileId)).toEqual([
      { name: 'school-nights', windows: [{ days: ['mon', 'tue', 'sun'], start: '21:00', end: '07:00' }] },
    ]);
  });

  it('marks a schedule active now when its window holds the present moment in the profile’s zone', async () => {
    const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'always', windows: [{ days: [...everyDay], start: '00:00', end: '00:00' }] },
    ]);
    renderRoute(`/profiles/${fx.profileId}/schedules`);
    expect(await screen.findByRole('listitem', { name: 'always' })).toHaveTextContent('Active now');
    expect(screen.getByRole('listitem', { name: 'always' })).toHaveTextContent('lasts 24 hours');
  });

  it('edits a schedule’s times in place and keeps the others', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'homework', windows: [{ days: ['mon'], start: '16:00', end: '18:00' }] },
      { name: 'weekend', windows: [{ days: ['sat'], start: '10:00', end: '12:00' }] },
    ]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Edit homework' }));
    const editing = form('Edit schedule homework');
    await user.click(within(editing).getByLabelText('Wednesday'));
    await user.clear(within(editing).getByLabelText('Until'));
    await user.type(within(editing).getByLabelText('Until'), '17:30');
    await user.click(within(editing).getByRole('button', { name: 'Save schedule' }));

    expect(await screen.findByText('Schedule homework is saved.')).toBeInTheDocument();
    expect(await fx.client.profiles.schedules.get(fx.profileId)).toEqual([
      { name: 'homework', windows: [{ days: ['mon', 'wed'], start: '16:00', end: '17:30' }] },
      { name: 'weekend', windows: [{ days: ['sat'], start: '10:00', end: '12:00' }] },
    ]);
  });

  it('shows the 422 of a repeated name and of a window without days at their fields, and stores nothing', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'homework', windows: [{ days: ['mon'], start: '16:00', end: '18:00' }] },
    ]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Add a schedule' }));
    const adding = form('Add a schedule');
    await user.type(within(adding).getByLabelText('Name'), 'homework');
    await user.type(within(adding).getByLabelText('From'), '09:00');
    await user.type(within(adding).getByLabelText('Until'), '10:00');
    await user.click(within(adding).getByRole('button', { name: 'Save schedule' }));

    const summary = await within(adding).findByRole('alert');
    expect(within(summary).getByRole('link', { name: 'Name must be unique' })).toHaveAttribute(
      'href',
      '#field-schedules-1-name',
    );
    expect(within(adding).getByLabelText('Name')).toBeInvalid();
    expect(within(adding).getByRole('group', { name: 'Days it starts on' })).toHaveTextContent(
      'must name at least one day',
    );
    expect(within(adding).getByLabelText('Name')).toHaveValue('homework');
    expect(await fx.client.profiles.schedules.get(fx.profileId)).toHaveLength(1);
  });

  it('refuses a save over a version changed elsewhere (412), says so and shows what is stored', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'homework', windows: [{ days: ['mon'], start: '16:00', end: '18:00' }] },
    ]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Add a schedule' }));
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'bedtime', windows: [{ days: ['fri'], start: '22:00', end: '06:00' }] },
    ]);
    const adding = form('Add a schedule');
    await user.type(within(adding).getByLabelText('Name'), 'weekend');
    await user.click(within(adding).getByLabelText('Saturday'));
    await user.type(within(adding).getByLabelText('From'), '10:00');
    await user.type(within(adding).getByLabelText('Until'), '12:00');
    await user.click(within(adding).getByRole('button', { name: 'Save schedule' }));

    expect(await within(adding).findByRole('alert')).toHaveTextContent('Someone changed this profile');
    expect(await screen.findByRole('listitem', { name: 'bedtime' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'homework' })).not.toBeInTheDocument();
    expect((await fx.client.profiles.schedules.get(fx.profileId)).map((each) => each.name)).toEqual([
      'bedtime',
    ]);
  });

  it('deletes a schedule once confirmed', async () => {
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'homework', windows: [{ days: ['mon'], start: '16:00', end: '18:00' }] },
    ]);
    const { user } = renderRoute(`/profiles/${fx.profileId}/schedules`);
    await user.click(await screen.findByRole('button', { name: 'Delete homework' }));
    await user.click(await screen.findByRole('button', { name: 'Delete for good' }));

    expect(await screen.findByText('Schedule homework is deleted.')).toBeInTheDocument();
    expect(screen.getByText('This profile has no schedule yet.')).toBeInTheDocument();
    await waitFor(async () => expect(await fx.client.profiles.schedules.get(fx.profileId)).toEqual([]));
  });
});

describe('Profile overview', () => {
  it('names the schedules active now in the profile’s zone and links to the schedules page', async () => {
    await fx.client.profiles.update(fx.profileId, { settings: { time_zone: 'America/New_York' } });
    const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
    await fx.client.profiles.schedules.replace(fx.profileId, [
      { name: 'always', windows: [{ days: [...everyDay], start: '00:00', end: '00:00' }] },
    ]);
    const { user } = renderRoute(`/profiles/${fx.profileId}`);
    const summary = await screen.findByRole('region', { name: 'Schedules' });
    expect(
      await within(summary).findByText('Active now (America/New_York time): always.'),
    ).toBeInTheDocument();

    await user.click(within(summary).getByRole('link', { name: 'Manage the schedules' }));
    expect(await screen.findByRole('listitem', { name: 'always' })).toBeInTheDocument();
  });
});
