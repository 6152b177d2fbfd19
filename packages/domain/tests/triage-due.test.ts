import { describe, expect, it } from 'vitest';
import { reportRetryAfterSeconds, TRIAGE_BUSINESS_MS, triageDueAt } from '../src/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Monday 5 January 2026, 00:00 UTC. */
const MONDAY = Date.UTC(2026, 0, 5);
const iso = (ms: number) => new Date(ms).toISOString();
const dueOf = (text: string) => triageDueAt(new Date(text)).toISOString();

const isWeekend = (ms: number) => [0, 6].includes(new Date(ms).getUTCDay());

/**
 * The definition, stepped by brute force: walk forward a minute at a time, counting only minutes that start
 * on a weekday, and stop at the first instant with 48 business hours counted (inputs on whole minutes).
 */
function bruteForceDue(start: number): number {
  let counted = 0;
  let at = start;
  while (counted < TRIAGE_BUSINESS_MS) {
    if (!isWeekend(at)) counted += MINUTE;
    at += MINUTE;
  }
  return at;
}

describe(triageDueAt.name, () => {
  it.each([
    // weekdays: two weekdays later at the same time of day
    ['2026-01-05T10:00:00.000Z', '2026-01-07T10:00:00.000Z'], // Monday → Wednesday
    ['2026-01-06T23:59:59.999Z', '2026-01-08T23:59:59.999Z'], // Tuesday → Thursday, ms kept
    ['2026-01-07T09:30:00.000Z', '2026-01-09T09:30:00.000Z'], // Wednesday → Friday
    ['2026-01-08T10:00:00.000Z', '2026-01-12T10:00:00.000Z'], // Thursday → Monday
    ['2026-01-09T15:00:00.000Z', '2026-01-13T15:00:00.000Z'], // Friday 15:00 → Tuesday 15:00
    ['2026-01-09T00:00:00.000Z', '2026-01-13T00:00:00.000Z'], // Friday 00:00 → Tuesday 00:00
    ['2026-01-09T23:59:59.999Z', '2026-01-13T23:59:59.999Z'], // Friday's last ms → Tuesday's last ms
    // Thursday 00:00 exactly uses up Thursday and Friday: due at the end of Friday (Saturday 00:00)
    ['2026-01-08T00:00:00.000Z', '2026-01-10T00:00:00.000Z'],
    ['2026-01-08T00:00:00.001Z', '2026-01-12T00:00:00.001Z'],
    // weekends: wait for Monday 00:00, then two whole business days (due at the end of Tuesday)
    ['2026-01-10T00:00:00.000Z', '2026-01-14T00:00:00.000Z'], // Saturday 00:00 → Wednesday 00:00
    ['2026-01-10T10:00:00.000Z', '2026-01-14T00:00:00.000Z'], // Saturday 10:00 → Wednesday 00:00
    ['2026-01-11T23:59:59.999Z', '2026-01-14T00:00:00.000Z'], // Sunday's last ms → Wednesday 00:00
    ['2026-01-12T00:00:00.000Z', '2026-01-14T00:00:00.000Z'], // Monday 00:00 → Wednesday 00:00
    // across a month and a year
    ['2025-12-31T18:00:00.000Z', '2026-01-02T18:00:00.000Z'], // Wednesday → Friday
    ['2026-01-30T12:00:00.000Z', '2026-02-03T12:00:00.000Z'], // Friday → Tuesday
    ['2028-02-28T08:00:00.000Z', '2028-03-01T08:00:00.000Z'], // Monday → Wednesday over 29 February
  ])('created %s → due %s', (created, due) => {
    expect(dueOf(created)).toBe(due);
  });

  it('matches the definition stepped minute by minute for every half hour of two weeks', () => {
    for (let start = MONDAY - 7 * DAY; start < MONDAY + 7 * DAY; start += 30 * MINUTE) {
      expect(iso(triageDueAt(new Date(start)).getTime()), iso(start)).toBe(iso(bruteForceDue(start)));
    }
  });

  it('is never strictly inside a weekend, at least 48 hours later, and never earlier for a later creation', () => {
    let previous = 0;
    for (let start = MONDAY - 7 * DAY; start < MONDAY + 14 * DAY; start += 7 * MINUTE + 13) {
      const due = triageDueAt(new Date(start)).getTime();
      const saturdayMidnight = new Date(due).getUTCDay() === 6 && due % DAY === 0;
      expect(isWeekend(due) && !saturdayMidnight, iso(start)).toBe(false);
      expect(due - start).toBeGreaterThanOrEqual(2 * DAY);
      expect(due - start).toBeLessThanOrEqual(4 * DAY);
      expect(due).toBeGreaterThanOrEqual(previous);
      previous = due;
    }
  });

  it('refuses an invalid date', () => {
    expect(() => triageDueAt(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe(reportRetryAfterSeconds.name, () => {
  const now = new Date(MONDAY + 10 * HOUR);
  /** `count` creation times a minute apart, newest first, the newest `newestAgoMs` before now. */
  const recent = (count: number, newestAgoMs: number) =>
    Array.from({ length: count }, (_, index) => new Date(now.getTime() - newestAgoMs - index * MINUTE));

  it('lets a report through under 20 in the window', () => {
    expect(reportRetryAfterSeconds([], now)).toBeUndefined();
    expect(reportRetryAfterSeconds(recent(19, 0), now)).toBeUndefined();
  });

  it('waits until the oldest of the latest 20 is 24 hours old, in whole seconds rounded up', () => {
    // The oldest of 20 was 19 minutes before the newest, which was an hour ago.
    expect(reportRetryAfterSeconds(recent(20, HOUR), now)).toBe((DAY - HOUR - 19 * MINUTE) / 1000);
    const almost = [...recent(19, 0), new Date(now.getTime() - DAY + 1_500)];
    expect(reportRetryAfterSeconds(almost, now)).toBe(2);
    const edge = [...recent(19, 0), new Date(now.getTime() - DAY + 1)];
    expect(reportRetryAfterSeconds(edge, now)).toBe(1);
  });
});
