import { describe, expect, it } from 'vitest';
import { isScheduleActive, nextScheduleChange, type Schedule, type ScheduleWindow } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const schedule = (...windows: ScheduleWindow[]): Schedule => ({ name: 'test', windows });
const window = (days: ScheduleWindow['days'], start: string, end: string): ScheduleWindow => ({
  days,
  start,
  end,
});

/** The UTC instants, minute by minute in [from, to), at which the schedule is active. */
function activeMinutes(target: Schedule, zone: string, from: string, to: string): string[] {
  const minutes: string[] = [];
  for (let instant = at(from); instant < at(to); instant += 60_000) {
    if (isScheduleActive(target, zone, instant)) minutes.push(new Date(instant).toISOString().slice(11, 16));
  }
  return minutes;
}

/** The active minutes as [first, last] runs, for reading. */
function runs(minutes: string[]): string[] {
  const result: string[] = [];
  let first: string | undefined;
  minutes.forEach((minute, index) => {
    first ??= minute;
    const next = minutes[index + 1];
    const following = new Date(at(`2000-01-01T${minute}:00Z`) + 60_000).toISOString().slice(11, 16);
    if (next !== following) {
      result.push(`${first}-${minute}`);
      first = undefined;
    }
  });
  return result;
}

describe('isScheduleActive: window edges and midnight (issue 38)', () => {
  const nights = schedule(window(['fri'], '22:00', '07:00'));

  it('is active from the start (inclusive) to the end (exclusive)', () => {
    const evening = schedule(window(['mon'], '18:00', '19:30'));
    expect(isScheduleActive(evening, 'UTC', at('2026-11-23T17:59:59.999Z'))).toBe(false);
    expect(isScheduleActive(evening, 'UTC', at('2026-11-23T18:00:00Z'))).toBe(true);
    expect(isScheduleActive(evening, 'UTC', at('2026-11-23T19:29:59.999Z'))).toBe(true);
    expect(isScheduleActive(evening, 'UTC', at('2026-11-23T19:30:00Z'))).toBe(false);
    // Tuesday is not one of its days.
    expect(isScheduleActive(evening, 'UTC', at('2026-11-24T18:30:00Z'))).toBe(false);
  });

  it('runs a window that ends before it starts into the next day, and only from its own days', () => {
    expect(isScheduleActive(nights, 'UTC', at('2026-11-27T21:59:00Z'))).toBe(false); // Friday
    expect(isScheduleActive(nights, 'UTC', at('2026-11-27T22:00:00Z'))).toBe(true);
    expect(isScheduleActive(nights, 'UTC', at('2026-11-28T00:00:00Z'))).toBe(true); // Saturday
    expect(isScheduleActive(nights, 'UTC', at('2026-11-28T06:59:00Z'))).toBe(true);
    expect(isScheduleActive(nights, 'UTC', at('2026-11-28T07:00:00Z'))).toBe(false);
    expect(isScheduleActive(nights, 'UTC', at('2026-11-28T22:30:00Z'))).toBe(false); // Saturday night
    expect(isScheduleActive(nights, 'UTC', at('2026-11-27T03:00:00Z'))).toBe(false); // Thursday's night
  });

  it('lasts 24 hours when the end equals the start', () => {
    const monday = schedule(window(['mon'], '00:00', '00:00'));
    expect(isScheduleActive(monday, 'UTC', at('2026-11-22T23:59:00Z'))).toBe(false);
    expect(isScheduleActive(monday, 'UTC', at('2026-11-23T00:00:00Z'))).toBe(true);
    expect(isScheduleActive(monday, 'UTC', at('2026-11-23T23:59:59Z'))).toBe(true);
    expect(isScheduleActive(monday, 'UTC', at('2026-11-24T00:00:00Z'))).toBe(false);
  });

  it('reads the window in the zone, a quarter-hour offset included', () => {
    const kathmandu = schedule(window(['mon'], '09:00', '10:00'));
    // 09:00 in Kathmandu (+05:45) is 03:15 UTC.
    expect(
      runs(activeMinutes(kathmandu, 'Asia/Kathmandu', '2026-11-23T00:00Z', '2026-11-24T00:00Z')),
    ).toEqual(['03:15-04:14']);
  });

  it('is active while any of its windows is', () => {
    const split = schedule(window(['sat'], '08:00', '09:00'), window(['sat'], '20:00', '21:00'));
    expect(runs(activeMinutes(split, 'UTC', '2026-11-28T00:00Z', '2026-11-29T00:00Z'))).toEqual([
      '08:00-08:59',
      '20:00-20:59',
    ]);
  });
});

describe('isScheduleActive: daylight saving time (ADR 0040)', () => {
  it('Europe/Berlin spring forward: a window from 02:30 starts at 03:00, one inside the gap never runs', () => {
    // 2026-03-29 01:00 UTC: 02:00 CET becomes 03:00 CEST.
    const fromGap = schedule(window(['sun'], '02:30', '04:00'));
    expect(runs(activeMinutes(fromGap, 'Europe/Berlin', '2026-03-28T22:00Z', '2026-03-29T04:00Z'))).toEqual([
      '01:00-01:59',
    ]);
    const inGap = schedule(window(['sun'], '02:00', '02:30'));
    expect(activeMinutes(inGap, 'Europe/Berlin', '2026-03-28T22:00Z', '2026-03-29T04:00Z')).toEqual([]);
    const overGap = schedule(window(['sun'], '01:30', '03:30'));
    // 01:30 CET to 03:30 CEST: one hour of real time.
    expect(runs(activeMinutes(overGap, 'Europe/Berlin', '2026-03-28T22:00Z', '2026-03-29T04:00Z'))).toEqual([
      '00:30-01:29',
    ]);
  });

  it('Europe/Berlin fall back: the repeated hour is read once', () => {
    // 2026-10-25 01:00 UTC: 03:00 CEST becomes 02:00 CET; 02:00–03:00 local happens twice.
    const repeated = schedule(window(['sun'], '02:00', '03:00'));
    expect(runs(activeMinutes(repeated, 'Europe/Berlin', '2026-10-24T22:00Z', '2026-10-25T04:00Z'))).toEqual([
      '00:00-00:59',
    ]);
    // The window that starts when the clock reads 03:00 starts when the clock was turned back.
    const after = schedule(window(['sun'], '03:00', '04:00'));
    expect(runs(activeMinutes(after, 'Europe/Berlin', '2026-10-24T22:00Z', '2026-10-25T04:00Z'))).toEqual([
      '01:00-02:59',
    ]);
    // A night window over the change stays on through both passes of the hour.
    const night = schedule(window(['sat'], '22:00', '07:00'));
    expect(runs(activeMinutes(night, 'Europe/Berlin', '2026-10-24T18:00Z', '2026-10-25T08:00Z'))).toEqual([
      '20:00-05:59',
    ]);
  });

  it('America/New_York: 02:30 on spring-forward day starts at 03:00; 01:00–02:00 on fall-back day once', () => {
    // 2026-03-08 07:00 UTC: 02:00 EST becomes 03:00 EDT.
    const spring = schedule(window(['sun'], '02:30', '03:30'));
    expect(runs(activeMinutes(spring, 'America/New_York', '2026-03-08T04:00Z', '2026-03-08T10:00Z'))).toEqual(
      ['07:00-07:29'],
    );
    // 2026-11-01 06:00 UTC: 02:00 EDT becomes 01:00 EST.
    const fall = schedule(window(['sun'], '01:00', '02:00'));
    expect(runs(activeMinutes(fall, 'America/New_York', '2026-11-01T03:00Z', '2026-11-01T09:00Z'))).toEqual([
      '05:00-05:59',
    ]);
    const bedtime = schedule(window(['sat'], '22:00', '07:00'));
    // 22:00 EDT to 07:00 EST: ten hours of real time, the repeated hour included once.
    expect(
      runs(activeMinutes(bedtime, 'America/New_York', '2026-10-31T23:00Z', '2026-11-01T14:00Z')),
    ).toEqual(['02:00-11:59']);
  });

  it('Australia/Lord_Howe: the half-hour shifts', () => {
    // 2026-10-03 15:30 UTC: 02:00 (+10:30) becomes 02:30 (+11:00).
    const spring = schedule(window(['sun'], '02:15', '03:00'));
    expect(
      runs(activeMinutes(spring, 'Australia/Lord_Howe', '2026-10-03T14:00Z', '2026-10-03T18:00Z')),
    ).toEqual(['15:30-15:59']);
    // 2026-04-04 15:00 UTC: 02:00 (+11:00) becomes 01:30 (+10:30); 01:30–02:00 local happens twice.
    const fall = schedule(window(['sun'], '01:30', '02:00'));
    expect(
      runs(activeMinutes(fall, 'Australia/Lord_Howe', '2026-04-04T13:00Z', '2026-04-04T17:00Z')),
    ).toEqual(['14:30-14:59']);
    const after = schedule(window(['sun'], '02:00', '03:00'));
    // From the turn-back (15:00 UTC) until the clock reads 03:00 (+10:30), 16:30 UTC.
    expect(
      runs(activeMinutes(after, 'Australia/Lord_Howe', '2026-04-04T13:00Z', '2026-04-04T17:00Z')),
    ).toEqual(['15:00-16:29']);
  });

  it('skips a whole day the zone skipped (Pacific/Apia, 2011-12-30)', () => {
    // Samoa skipped 2011-12-30 entirely: from Thursday 29th 23:59 (-10:00) to Saturday 31st 00:00 (+14:00).
    const friday = schedule(window(['fri'], '00:00', '00:00'));
    expect(activeMinutes(friday, 'Pacific/Apia', '2011-12-30T00:00Z', '2011-12-31T00:00Z')).toEqual([]);
    const saturday = schedule(window(['sat'], '00:00', '01:00'));
    expect(runs(activeMinutes(saturday, 'Pacific/Apia', '2011-12-30T08:00Z', '2011-12-30T12:00Z'))).toEqual([
      '10:00-10:59',
    ]);
  });
});

describe('nextScheduleChange', () => {
  const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());

  it('names the next start or end, across midnight and days', () => {
    const nights = schedule(window(['fri'], '22:00', '07:00'));
    expect(iso(nextScheduleChange(nights, 'UTC', at('2026-11-25T12:00Z')))).toBe('2026-11-27T22:00:00.000Z');
    expect(iso(nextScheduleChange(nights, 'UTC', at('2026-11-27T22:00Z')))).toBe('2026-11-28T07:00:00.000Z');
    expect(iso(nextScheduleChange(nights, 'UTC', at('2026-11-28T06:59:59Z')))).toBe(
      '2026-11-28T07:00:00.000Z',
    );
  });

  it('skips boundaries where one window hands over to the next', () => {
    const evening = schedule(window(['mon'], '18:00', '20:00'), window(['mon'], '20:00', '22:00'));
    expect(iso(nextScheduleChange(evening, 'UTC', at('2026-11-23T18:30Z')))).toBe('2026-11-23T22:00:00.000Z');
  });

  it('follows the clock changes as isScheduleActive does', () => {
    const spring = schedule(window(['sun'], '02:30', '03:30'));
    expect(iso(nextScheduleChange(spring, 'America/New_York', at('2026-03-08T05:00Z')))).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    const fall = schedule(window(['sun'], '01:00', '02:00'));
    expect(iso(nextScheduleChange(fall, 'America/New_York', at('2026-11-01T05:10Z')))).toBe(
      '2026-11-01T06:00:00.000Z',
    );
    const lordHowe = schedule(window(['sun'], '02:00', '03:00'));
    expect(iso(nextScheduleChange(lordHowe, 'Australia/Lord_Howe', at('2026-04-04T14:00Z')))).toBe(
      '2026-04-04T15:00:00.000Z',
    );
  });

  it('answers null for a schedule that never changes within the week', () => {
    const always = schedule(window(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], '00:00', '00:00'));
    expect(nextScheduleChange(always, 'Europe/Berlin', at('2026-03-29T01:30Z'))).toBeNull();
  });
});
