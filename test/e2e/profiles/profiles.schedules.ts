import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { ProfilesFixture } from './profiles.fixture.js';

const BEDTIME = {
  name: 'bedtime',
  windows: [{ days: ['sun', 'mon', 'tue', 'wed', 'thu'], start: '21:00', end: '07:00' }],
};
const HOMEWORK = { name: 'homework', windows: [{ days: ['mon', 'wed'], start: '16:00', end: '18:00' }] };

/** The profile's time zone and its named weekly schedules (issue 38, ADR 0040). */
export function profileSchedules(fx: ProfilesFixture): void {
  const { create, patch, documentsOf } = fx;
  const schedulesOf = (id: string) => `${fx.api.url}/v1/profiles/${id}/schedules`;
  const put = (id: string, body: object, headers: Record<string, string> = {}, who = fx.owner) =>
    send(schedulesOf(id), { method: 'PUT', headers: { ...who.auth, ...headers }, body });

  it('defaults settings.time_zone to UTC, takes an IANA zone at creation and by PATCH, and publishes it', async () => {
    const { profile } = await create();
    expect(profile.settings.time_zone).toBe('UTC');
    const { profile: berlin } = await create({ settings: { time_zone: 'europe/berlin' } });
    expect(berlin.settings.time_zone).toBe('Europe/Berlin');
    const changed = await patch(
      profile.id,
      { settings: { time_zone: 'Australia/Lord_Howe' } },
      { 'if-match': '"1"' },
    );
    expect(changed.status).toBe(200);
    expect((changed.json as { settings: Record<string, unknown> }).settings).toMatchObject({
      time_zone: 'Australia/Lord_Howe',
      block_mode: 'nxdomain',
    });
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 2,
    );
    expect(documents.at(-1)).toMatchObject({ settings: { time_zone: 'Australia/Lord_Howe' } });
  });

  it('refuses an unknown zone with 422 on settings.time_zone and changes nothing', async () => {
    const { profile } = await create();
    for (const zone of ['Mars/Olympus_Mons', '+02:00', 'UTC ', 42]) {
      const answer = await patch(profile.id, { settings: { time_zone: zone } });
      expectProblem(answer, 422, 'validation_failed');
      expect(problemOf(answer).errors).toEqual([
        { field: 'settings.time_zone', message: expect.any(String) },
      ]);
    }
    const refused = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { settings: { time_zone: 'Europe/Atlantis' } },
    });
    expectProblem(refused, 422, 'validation_failed');
    const read = await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth });
    expect(read.json).toMatchObject({ version: 1, settings: { time_zone: 'UTC' } });
  });

  it('replaces the schedules in one version bump, reads them back and publishes them to the edge', async () => {
    const { profile } = await create({ settings: { time_zone: 'America/New_York' } });
    const empty = await send(schedulesOf(profile.id), { headers: fx.owner.auth });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ schedules: [], bedtime: null, assignments: [] });
    expect(empty.headers.etag).toBe('"1"');
    const replaced = await put(profile.id, { schedules: [BEDTIME, HOMEWORK] }, { 'if-match': '"1"' });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.etag).toBe('"2"');
    expect(replaced.json).toEqual({ schedules: [BEDTIME, HOMEWORK], bedtime: null, assignments: [] });
    const read = await send(schedulesOf(profile.id), { headers: fx.owner.auth });
    expect(read.json).toEqual({ schedules: [BEDTIME, HOMEWORK], bedtime: null, assignments: [] });
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length >= 2,
    );
    expect(documents.at(-1)).toMatchObject({
      version: 2,
      settings: { time_zone: 'America/New_York' },
      schedules: [BEDTIME, HOMEWORK],
    });
    const stale = await put(profile.id, { schedules: [] }, { 'if-match': '"1"' });
    expectProblem(stale, 412, 'version_mismatch');
    const cleared = await put(profile.id, { schedules: [] });
    expect(cleared.json).toEqual({ schedules: [], bedtime: null, assignments: [] });
    expect(cleared.headers.etag).toBe('"3"');
  });

  it('refuses bad windows with 422 naming each field, and stores nothing of them', async () => {
    const { profile } = await create();
    const bad = await put(profile.id, {
      schedules: [
        { name: 'bedtime', windows: [{ days: [], start: '24:00', end: '7:00' }] },
        { name: 'bedtime', windows: [{ days: ['mon', 'mon'], start: '09:00', end: '10:00' }] },
        { name: 'School Nights', windows: [{ days: ['someday'], start: '21:00', end: '07:00' }] },
      ],
    });
    expectProblem(bad, 422, 'validation_failed');
    const fields = (problemOf(bad).errors as { field: string }[]).map((error) => error.field).sort();
    expect(fields).toEqual([
      'schedules.0.windows.0.days',
      'schedules.0.windows.0.end',
      'schedules.0.windows.0.start',
      'schedules.1.windows.0.days',
      'schedules.2.name',
      'schedules.2.windows.0.days.0',
    ]);
    // Names are compared once every schedule is well formed.
    const twice = await put(profile.id, {
      schedules: [BEDTIME, HOMEWORK, { ...HOMEWORK, windows: BEDTIME.windows }],
    });
    expectProblem(twice, 422, 'validation_failed');
    expect(problemOf(twice).errors).toEqual([{ field: 'schedules.2.name', message: 'must be unique' }]);
    const tooMany = await put(profile.id, {
      schedules: [{ name: 'busy', windows: Array.from({ length: 29 }, () => HOMEWORK.windows[0]) }],
    });
    expectProblem(tooMany, 422, 'validation_failed');
    expect(problemOf(tooMany).errors).toEqual([
      { field: 'schedules.0.windows', message: 'must have at most 28 windows' },
    ]);
    const schedules = Array.from({ length: 21 }, (_, index) => ({ ...HOMEWORK, name: `s${index}` }));
    expect(problemOf(await put(profile.id, { schedules })).errors).toEqual([
      { field: 'schedules', message: 'must have at most 20 schedules' },
    ]);
    expectProblem(await put(profile.id, { schedules: 'bedtime' }), 422, 'validation_failed');
    expectProblem(await put(profile.id, {}), 422, 'validation_failed');
    const read = await send(schedulesOf(profile.id), { headers: fx.owner.auth });
    expect(read.json).toEqual({ schedules: [], bedtime: null, assignments: [] });
    expect(read.headers.etag).toBe('"1"');
  });

  it('refuses a huge body with 400 body_too_large before reading it', async () => {
    const { profile } = await create();
    const windows = Array.from({ length: 200_000 }, () => HOMEWORK.windows[0]);
    const huge = await put(profile.id, { schedules: [{ name: 'huge', windows }] });
    expectProblem(huge, 400, 'body_too_large');
  });

  it('answers 404 for another organisation’s profile and 403 to a read-only token', async () => {
    const { profile } = await create();
    await put(profile.id, { schedules: [BEDTIME] });
    const foreignRead = await send(schedulesOf(profile.id), { headers: fx.stranger.auth });
    expectProblem(foreignRead, 404, 'not_found');
    expectProblem(await put(profile.id, { schedules: [] }, {}, fx.stranger), 404, 'not_found');
    // A token of the owner's own organisation that may only read.
    const minted = await send(`${fx.api.url}/v1/tokens`, {
      method: 'POST',
      headers: { cookie: `svc_session=${fx.owner.cookie}` },
      body: { name: 'read only', scopes: ['profiles:read'] },
    });
    const reader = { authorization: `Bearer ${(minted.json as { secret: string }).secret}` };
    const read = await send(schedulesOf(profile.id), { headers: reader });
    expect(read.json).toEqual({ schedules: [BEDTIME], bedtime: null, assignments: [] });
    const write = await send(schedulesOf(profile.id), {
      method: 'PUT',
      headers: reader,
      body: { schedules: [] },
    });
    expectProblem(write, 403, 'insufficient_scope');
    const mine = await send(schedulesOf(profile.id), { headers: fx.owner.auth });
    expect(mine.json).toEqual({ schedules: [BEDTIME], bedtime: null, assignments: [] });
    expect(mine.headers.etag).toBe('"2"');
    expect((await send(schedulesOf(profile.id))).status).toBe(401);
  });
}
