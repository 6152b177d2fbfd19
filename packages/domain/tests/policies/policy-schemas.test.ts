import { describe, expect, it } from 'vitest';
import {
  Allowance,
  AllowanceCreate,
  AllowanceList,
  DevicePolicy,
  MAX_ACTIVE_ALLOWANCES,
  MAX_DEVICE_RULES,
  ProfileSchedules,
  ScheduleMode,
} from '../../src/index.js';

const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.'));

const homework = { name: 'homework', windows: [{ days: ['mon'], start: '15:00', end: '17:00' }] };

describe('timed allowances (issue 38)', () => {
  it('allows one name, normalised as a rule pattern, or one service, for 1 to 1440 minutes', () => {
    expect(AllowanceCreate.parse({ domain: 'Video.Example.COM.', minutes: 15 })).toEqual({
      domain: 'video.example.com',
      minutes: 15,
    });
    expect(AllowanceCreate.parse({ service: 'youtube', minutes: 1440 })).toEqual({
      service: 'youtube',
      minutes: 1440,
    });
    for (const minutes of [0, 1441, 1.5]) {
      expect(fieldsOf(AllowanceCreate.safeParse({ service: 'youtube', minutes }))).toEqual(['minutes']);
    }
  });

  it('refuses both a domain and a service, neither, or an unknown field', () => {
    expect(
      fieldsOf(AllowanceCreate.safeParse({ domain: 'a.example', service: 'youtube', minutes: 5 })),
    ).toEqual(['domain']);
    expect(fieldsOf(AllowanceCreate.safeParse({ minutes: 5 }))).toEqual(['domain']);
    expect(AllowanceCreate.safeParse({ domain: 'a.example', minutes: 5, device: 'tv' }).success).toBe(false);
    expect(MAX_ACTIVE_ALLOWANCES).toBeGreaterThan(0);
  });

  it('shows an allowance with its end', () => {
    const shown = {
      id: 'a1',
      domain: 'video.example.com',
      service: null,
      expires_at: '2026-11-28T10:15:00.000Z',
      created_at: '2026-11-28T10:00:00.000Z',
    };
    expect(Allowance.parse(shown)).toEqual(shown);
    expect(AllowanceList.parse({ allowances: [shown] })).toEqual({ allowances: [shown] });
  });
});

describe('device policies (issue 38)', () => {
  it('inherits every field it leaves out: an empty policy is valid', () => {
    expect(DevicePolicy.parse({})).toEqual({});
  });

  it('takes parental off, its own services, a bedtime or none, and rules added to the profile’s', () => {
    expect(DevicePolicy.parse({ parental: 'off', bedtime: null })).toEqual({
      parental: 'off',
      bedtime: null,
    });
    expect(
      DevicePolicy.parse({ parental: { services: ['tiktok'] }, rules: { deny: ['Games.Example'] } }),
    ).toEqual({
      parental: { services: ['tiktok'], categories: [] },
      rules: { deny: ['games.example'], allow: [] },
    });
  });

  it('refuses unknown fields, bad patterns and more rules than the limit', () => {
    expect(DevicePolicy.safeParse({ paused_until: '2026-11-28T10:00:00Z' }).success).toBe(false);
    expect(fieldsOf(DevicePolicy.safeParse({ rules: { deny: ['not a name'] } }))).toEqual(['rules.deny.0']);
    const many = Array.from({ length: MAX_DEVICE_RULES + 1 }, (_, index) => `d${index}.example`);
    expect(fieldsOf(DevicePolicy.safeParse({ rules: { allow: many } }))).toEqual(['rules.allow']);
  });
});

describe('schedule assignments and bedtime (issue 38)', () => {
  it('limits or lifts items by a schedule of the profile', () => {
    expect(ScheduleMode.options).toEqual(['only_during', 'lifted_during']);
    const parsed = ProfileSchedules.parse({
      schedules: [homework],
      bedtime: 'homework',
      assignments: [
        { target: { kind: 'service', id: 'youtube' }, schedule: 'homework', mode: 'lifted_during' },
      ],
    });
    expect(parsed.bedtime).toBe('homework');
    expect(ProfileSchedules.parse({ schedules: [] })).toEqual({
      schedules: [],
      bedtime: null,
      assignments: [],
    });
  });

  it('refuses a bedtime or assignment naming no schedule, and an item scoped twice', () => {
    const target = { kind: 'deny', pattern: 'games.example' } as const;
    const result = ProfileSchedules.safeParse({
      schedules: [homework],
      bedtime: 'night',
      assignments: [
        { target, schedule: 'homework', mode: 'only_during' },
        { target: { kind: 'deny', pattern: 'Games.Example' }, schedule: 'weekend', mode: 'only_during' },
      ],
    });
    expect(fieldsOf(result).sort()).toEqual(['assignments.1.schedule', 'assignments.1.target', 'bedtime']);
  });
});
