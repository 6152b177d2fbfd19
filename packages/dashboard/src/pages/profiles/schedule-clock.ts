import type { Schedule, ScheduleWindow } from '@svc/sdk';

/** A day of the week as schedules name it. */
export type Weekday = ScheduleWindow['days'][number];

/** The days of the week in the order the dashboard lists them (the API's order, Monday first). */
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** How a window ends, for the words beside it: `end` earlier than `start` ends the next day; equal, 24 hours. */
export type WindowEnd = 'same-day' | 'next-day' | 'full-day';

/** Minutes since midnight of a wall time `HH:MM`; NaN for anything else (a field still being typed). */
function minuteOfDay(wallTime: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(wallTime);
  if (match === null) return Number.NaN;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Whether a window from `start` to `end` ends the same day, the next day, or lasts 24 hours. */
export function windowEnd(start: string, end: string): WindowEnd {
  const from = minuteOfDay(start);
  const to = minuteOfDay(end);
  if (to === from) return 'full-day';
  return to < from ? 'next-day' : 'same-day';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building them is the slow part of reading a clock. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The weekday and minute of the day a clock in IANA `zone` shows at `at`. */
export function wallClockIn(zone: string, at: Date): { day: Weekday; minute: number } {
  const parts = formatterFor(zone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  const day = WEEKDAYS.find((weekday) => part('weekday').toLowerCase().startsWith(weekday)) ?? 'mon';
  return { day, minute: Number(part('hour')) * 60 + Number(part('minute')) };
}

/**
 * Whether `schedule` is active at `at` in `zone`, for the "Active now" mark: each window from its start
 * (inclusive) to its end (exclusive), a window ending the next day counted from the day it starts. The edges
 * decide by the domain's `isScheduleActive`, which also settles the hour repeated when clocks go back; the
 * dashboard, which may not import the domain, reads the zone's clock as shown, which differs only in that hour.
 */
export function isActiveAt(schedule: Schedule, zone: string, at: Date): boolean {
  const { day, minute } = wallClockIn(zone, at);
  const yesterday = WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7] ?? day;
  return schedule.windows.some((window) => {
    const start = minuteOfDay(window.start);
    const end = minuteOfDay(window.end);
    if (end > start) return window.days.includes(day) && minute >= start && minute < end;
    return (
      (window.days.includes(day) && minute >= start) || (window.days.includes(yesterday) && minute < end)
    );
  });
}
