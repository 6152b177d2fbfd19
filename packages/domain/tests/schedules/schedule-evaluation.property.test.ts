import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScheduleActive, nextScheduleChange, type Schedule, WEEKDAYS } from '../../src/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The zone's local wall time at `instant`, in ms since 1970-01-01 local, read afresh from Intl's parts. */
const formats = new Map<string, Intl.DateTimeFormat>();

function localWall(zone: string, instant: number): number {
  const format =
    formats.get(zone) ??
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  formats.set(zone, format);
  const parts = format.formatToParts(instant);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'));
}

const SUNDAY_FIRST = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The reference rule, stated on wall-clock values: windows cover [start, end) of their days' wall times. */
function referenceActive(target: Schedule, wall: number): boolean {
  const date = new Date(wall);
  const minute = date.getUTCHours() * 60 + date.getUTCMinutes();
  const today = SUNDAY_FIRST[date.getUTCDay()];
  const yesterday = SUNDAY_FIRST[(date.getUTCDay() + 6) % 7];
  const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  return target.windows.some((window) => {
    const start = minutesOf(window.start);
    const end = minutesOf(window.end);
    const days: string[] = window.days;
    if (end > start) return days.includes(today as string) && minute >= start && minute < end;
    return (
      (days.includes(today as string) && minute >= start) ||
      (days.includes(yesterday as string) && minute < end)
    );
  });
}

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/Santiago',
  'Pacific/Chatham',
  'America/St_Johns',
];

/** The zones' 2026 changes, where the rule matters most. */
const CHANGES: [string, string][] = [
  ['Europe/Berlin', '2026-03-29T01:00Z'],
  ['Europe/Berlin', '2026-10-25T01:00Z'],
  ['America/New_York', '2026-03-08T07:00Z'],
  ['America/New_York', '2026-11-01T06:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30Z'],
  ['America/Santiago', '2026-04-05T03:00Z'],
  ['America/Santiago', '2026-09-06T04:00Z'],
  ['Pacific/Chatham', '2026-04-04T14:00Z'],
  ['Pacific/Chatham', '2026-09-26T14:00Z'],
  ['America/St_Johns', '2026-03-08T05:30Z'],
  ['America/St_Johns', '2026-11-01T04:30Z'],
];

// Mostly the small hours, where zones change their clocks.
const wallTime = fc
  .tuple(
    fc.oneof({ arbitrary: fc.integer({ min: 0, max: 4 }), weight: 3 }, fc.integer({ min: 0, max: 23 })),
    fc.constantFrom(0, 15, 30, 45, 59, 1, 29),
  )
  .map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
const scheduleArbitrary: fc.Arbitrary<Schedule> = fc.record({
  name: fc.constant('random'),
  windows: fc.array(
    fc.record({
      days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }),
      start: wallTime,
      end: wallTime,
    }),
    { minLength: 1, maxLength: 3 },
  ),
});
const zoneAndInstant = fc.oneof(
  fc.constantFrom(...CHANGES).map(([zone, iso]) => ({ zone, around: Date.parse(iso) })),
  fc.record({
    zone: fc.constantFrom(...ZONES),
    around: fc.integer({ min: Date.parse('2024-01-01T00:00Z'), max: Date.parse('2028-01-01T00:00Z') }),
  }),
);

describe('isScheduleActive against a minute-stepping reference (ADR 0040)', () => {
  it('agrees at every minute of two days around changes and random instants, in zones with odd offsets', () => {
    fc.assert(
      fc.property(scheduleArbitrary, zoneAndInstant, (target, { zone, around }) => {
        const from = Math.floor(around / MINUTE) * MINUTE - 30 * HOUR;
        // The reference's clock never goes back: the highest wall time read so far, where a change that
        // turns the clock back counts the wall time it was turned back from (the last minute before it, plus one).
        let previous = localWall(zone, from - 6 * HOUR);
        let highest = previous;
        for (let instant = from - 6 * HOUR + MINUTE; instant < from + 54 * HOUR; instant += MINUTE) {
          const wall = localWall(zone, instant);
          highest = Math.max(highest, wall, previous + MINUTE);
          previous = wall;
          if (instant < from) continue;
          const expected = referenceActive(target, highest);
          if (isScheduleActive(target, zone, instant) !== expected) {
            expect({ zone, at: new Date(instant).toISOString(), active: !expected }).toEqual({
              zone,
              at: new Date(instant).toISOString(),
              active: expected,
            });
          }
        }
      }),
      { numRuns: 60, seed: 38 },
    );
  });

  it('names the first instant the answer changes: the same answer every minute until then, another at it', () => {
    fc.assert(
      fc.property(
        scheduleArbitrary,
        zoneAndInstant,
        fc.integer({ min: -30, max: 30 }),
        (target, { zone, around }, shift) => {
          const from = around + shift * 37 * MINUTE;
          const active = isScheduleActive(target, zone, from);
          const next = nextScheduleChange(target, zone, from);
          const horizon = next ?? from + 7 * 24 * HOUR;
          for (
            let instant = Math.floor(from / MINUTE) * MINUTE + MINUTE;
            instant < horizon;
            instant += MINUTE
          )
            expect(isScheduleActive(target, zone, instant), new Date(instant).toISOString()).toBe(active);
          if (next !== null) {
            expect(next).toBeGreaterThan(from);
            expect(isScheduleActive(target, zone, next)).toBe(!active);
          }
        },
      ),
      { numRuns: 60, seed: 380 },
    );
  });
});
