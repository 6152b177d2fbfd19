import { describe, expect, it } from 'vitest';
import { ProfileCreate, ProfilePatch, ProfileSchedules, TimeZone } from '../../src/index.js';

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => ({ field: issue.path.join('.'), message: issue.message }));

describe('TimeZone (issue 38: settings.time_zone)', () => {
  it('accepts IANA names the runtime knows, aliases and UTC included', () => {
    for (const zone of [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'UTC',
      'Etc/UTC',
      'Asia/Kolkata',
    ])
      expect(TimeZone.parse(zone)).toBe(zone);
  });

  it('stores a listed name in the database’s spelling', () => {
    expect(TimeZone.parse('europe/berlin')).toBe('Europe/Berlin');
    expect(TimeZone.parse('utc')).toBe('UTC');
  });

  it('refuses unknown zones, fixed offsets and overlong names', () => {
    for (const zone of [
      'Mars/Olympus_Mons',
      '+01:00',
      'Europe/Berlin ',
      '',
      'Europe/../etc',
      `${'A'.repeat(65)}`,
      'CET; DROP',
    ])
      expect(TimeZone.safeParse(zone).success, zone).toBe(false);
    expect(TimeZone.safeParse(3).success).toBe(false);
  });

  it('defaults new profiles to UTC and can be patched alone', () => {
    expect(ProfileCreate.parse({}).settings.time_zone).toBe('UTC');
    expect(ProfilePatch.parse({ settings: { time_zone: 'Europe/Berlin' } })).toEqual({
      settings: { time_zone: 'Europe/Berlin' },
    });
    expect(issuesOf(ProfilePatch.safeParse({ settings: { time_zone: 'Nowhere/Town' } }))).toEqual([
      { field: 'settings.time_zone', message: 'must be an IANA time zone such as Europe/Berlin or UTC' },
    ]);
  });
});

describe('ProfileSchedules (issue 38)', () => {
  const bedtime = { name: 'bedtime', windows: [{ days: ['mon', 'tue'], start: '21:00', end: '07:00' }] };

  it('accepts named windows, across midnight and of 24 hours', () => {
    const all = { name: 'all-monday', windows: [{ days: ['mon'], start: '00:00', end: '00:00' }] };
    expect(ProfileSchedules.parse({ schedules: [bedtime, all] }).schedules).toHaveLength(2);
    expect(ProfileSchedules.parse({ schedules: [] }).schedules).toEqual([]);
  });

  it('names each bad field', () => {
    const result = ProfileSchedules.safeParse({
      schedules: [
        bedtime,
        { name: 'bedtime', windows: [{ days: [], start: '24:00', end: '7:00' }] },
        { name: 'Bad Name', windows: [{ days: ['mon', 'mon', 'someday'], start: '00:00', end: '23:60' }] },
        { name: 'empty', windows: [] },
      ],
    });
    expect(issuesOf(result)).toEqual(
      expect.arrayContaining([
        { field: 'schedules.1.windows.0.days', message: 'must name at least one day' },
        { field: 'schedules.1.windows.0.start', message: 'must be a local time HH:MM from 00:00 to 23:59' },
        { field: 'schedules.1.windows.0.end', message: 'must be a local time HH:MM from 00:00 to 23:59' },
        { field: 'schedules.2.name', message: 'must be 1 to 32 characters a-z, 0-9 or -' },
        {
          field: 'schedules.2.windows.0.days.2',
          message: 'must be one of mon, tue, wed, thu, fri, sat, sun',
        },
        { field: 'schedules.2.windows.0.end', message: 'must be a local time HH:MM from 00:00 to 23:59' },
        { field: 'schedules.3.windows', message: 'must have at least one window' },
      ]),
    );
  });

  it('refuses duplicate names and days, too many windows and schedules, and unknown fields', () => {
    expect(issuesOf(ProfileSchedules.safeParse({ schedules: [bedtime, bedtime] }))).toEqual([
      { field: 'schedules.1.name', message: 'must be unique' },
    ]);
    const twice = { name: 'x', windows: [{ days: ['mon', 'mon'], start: '00:00', end: '01:00' }] };
    expect(issuesOf(ProfileSchedules.safeParse({ schedules: [twice] }))).toEqual([
      { field: 'schedules.0.windows.0.days', message: 'must name each day at most once' },
    ]);
    const many = { name: 'many', windows: Array.from({ length: 29 }, () => bedtime.windows[0]) };
    expect(issuesOf(ProfileSchedules.safeParse({ schedules: [many] }))).toEqual([
      { field: 'schedules.0.windows', message: 'must have at most 28 windows' },
    ]);
    const schedules = Array.from({ length: 21 }, (_, index) => ({ ...bedtime, name: `s${index}` }));
    expect(issuesOf(ProfileSchedules.safeParse({ schedules }))).toEqual([
      { field: 'schedules', message: 'must have at most 20 schedules' },
    ]);
    expect(ProfileSchedules.safeParse({ schedules: [{ ...bedtime, colour: 'red' }] }).success).toBe(false);
  });
});
