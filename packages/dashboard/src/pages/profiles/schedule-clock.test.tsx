import type { Schedule } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import { isActiveAt, wallClockIn, windowEnd } from './schedule-clock.js';

const schoolNights: Schedule = {
  name: 'school-nights',
  windows: [{ days: ['sun', 'mon', 'tue', 'wed', 'thu'], start: '21:00', end: '07:00' }],
};

describe(isActiveAt.name, () => {
  it('reads the window in the profile’s zone, not in UTC', () => {
    const homework: Schedule = {
      name: 'homework',
      windows: [{ days: ['mon'], start: '16:00', end: '18:00' }],
    };
    // Monday 2026-03-02 15:30 UTC is 16:30 in Berlin (UTC+1) and 10:30 in New York.
    const at = new Date('2026-03-02T15:30:00Z');
    expect(isActiveAt(homework, 'Europe/Berlin', at)).toBe(true);
    expect(isActiveAt(homework, 'America/New_York', at)).toBe(false);
    expect(isActiveAt(homework, 'UTC', at)).toBe(false);
  });

  it('counts a window ending the next day from the day it starts, up to its end (exclusive)', () => {
    // Thursday 23:00 and Friday 06:59 in UTC: inside; Friday 07:00: the end; Friday 23:00: no window starts.
    expect(isActiveAt(schoolNights, 'UTC', new Date('2026-03-05T23:00:00Z'))).toBe(true);
    expect(isActiveAt(schoolNights, 'UTC', new Date('2026-03-06T06:59:00Z'))).toBe(true);
    expect(isActiveAt(schoolNights, 'UTC', new Date('2026-03-06T07:00:00Z'))).toBe(false);
    expect(isActiveAt(schoolNights, 'UTC', new Date('2026-03-06T23:00:00Z'))).toBe(false);
    // Monday 05:00 belongs to Sunday's window.
    expect(isActiveAt(schoolNights, 'UTC', new Date('2026-03-09T05:00:00Z'))).toBe(true);
  });

  it('takes a window whose end equals its start as 24 hours from its start', () => {
    const day: Schedule = { name: 'day', windows: [{ days: ['sat'], start: '08:00', end: '08:00' }] };
    expect(isActiveAt(day, 'UTC', new Date('2026-03-07T07:59:00Z'))).toBe(false);
    expect(isActiveAt(day, 'UTC', new Date('2026-03-07T08:00:00Z'))).toBe(true);
    expect(isActiveAt(day, 'UTC', new Date('2026-03-08T07:59:00Z'))).toBe(true);
    expect(isActiveAt(day, 'UTC', new Date('2026-03-08T08:00:00Z'))).toBe(false);
  });

  it('follows a half-hour zone (Lord Howe, UTC+10:30 in winter)', () => {
    const evening: Schedule = { name: 'evening', windows: [{ days: ['wed'], start: '20:00', end: '21:00' }] };
    // Wednesday 2026-07-01 09:45 UTC is 20:15 at Lord Howe.
    expect(wallClockIn('Australia/Lord_Howe', new Date('2026-07-01T09:45:00Z'))).toEqual({
      day: 'wed',
      minute: 20 * 60 + 15,
    });
    expect(isActiveAt(evening, 'Australia/Lord_Howe', new Date('2026-07-01T09:45:00Z'))).toBe(true);
  });
});

describe(windowEnd.name, () => {
  it('says when a window ends the next day or lasts a whole day', () => {
    expect(windowEnd('16:00', '18:00')).toBe('same-day');
    expect(windowEnd('21:00', '07:00')).toBe('next-day');
    expect(windowEnd('08:00', '08:00')).toBe('full-day');
  });
});
