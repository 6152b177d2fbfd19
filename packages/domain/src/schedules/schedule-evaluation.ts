import type { Schedule, ScheduleWindow } from './schedule.schemas.js';
import { zoneOffsetAt } from './zone-offsets.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Weekdays by `(days since 1970-01-01 + 4) % 7`: that day was a Thursday. */
const BY_EPOCH_DAY = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * The local wall time schedules read at `atMs` in `zone`, as milliseconds since 1970-01-01T00:00 local: a
 * clock that never goes back (ADR 0040). It is the zone's clock, except during the repeated hour after a
 * fall-back, when it stays at the moment the clock was turned back (02:00 in New York, 03:00 in Berlin) until
 * the zone's clock reaches that time again. So a skipped wall time is reached at the first instant after the
 * gap (02:30 on a spring-forward day at 03:00), and no wall time is read twice.
 */
function scheduleWallClock(zone: string, atMs: number): number {
  const { offset, lastTransition } = zoneOffsetAt(zone, atMs);
  if (lastTransition !== undefined && lastTransition.before > lastTransition.after) {
    const turnedBack = lastTransition.at + lastTransition.before;
    if (atMs + offset < turnedBack) return turnedBack;
  }
  return atMs + offset;
}

/** Minutes since midnight of a valid `HH:MM` (the schema checked it). */
function minuteOfDay(wallTime: string): number {
  const digit = (index: number) => wallTime.charCodeAt(index) - 48;
  return (digit(0) * 10 + digit(1)) * 60 + digit(3) * 10 + digit(4);
}

/** A window as evaluated: its days as bits by {@link BY_EPOCH_DAY} index, its ends in minutes of the day. */
interface CompiledWindow {
  days: number;
  start: number;
  end: number;
}

/** Windows compiled once per schedule object: documents are parsed once and not changed after. */
const compiledSchedules = new WeakMap<Schedule, readonly CompiledWindow[]>();

function compiled(schedule: Schedule): readonly CompiledWindow[] {
  let windows = compiledSchedules.get(schedule);
  if (windows === undefined) {
    windows = schedule.windows.map((window: ScheduleWindow) => ({
      days: window.days.reduce((bits, day) => bits | (1 << BY_EPOCH_DAY.indexOf(day)), 0),
      start: minuteOfDay(window.start),
      end: minuteOfDay(window.end),
    }));
    compiledSchedules.set(schedule, windows);
  }
  return windows;
}

/**
 * Whether `schedule` is active at the instant `atMs`, read in the IANA `zone` (issue 38): each window from its
 * start (inclusive) to its end (exclusive) on the wall clock of {@link scheduleWallClock}. Pure and cheap:
 * the zone's offsets are read from the runtime once per year and kept.
 */
export function isScheduleActive(schedule: Schedule, zone: string, atMs: number): boolean {
  const wall = scheduleWallClock(zone, atMs);
  const epochDay = Math.floor(wall / DAY_MS);
  const minute = Math.floor((wall - epochDay * DAY_MS) / MINUTE_MS);
  const weekday = (((epochDay + 4) % 7) + 7) % 7;
  const today = 1 << weekday;
  const yesterday = 1 << ((weekday + 6) % 7);
  for (const window of compiled(schedule)) {
    if (window.end > window.start) {
      if (minute >= window.start && minute < window.end && (window.days & today) !== 0) return true;
    } else if (
      // Ends the next day (or lasts 24 hours when end equals start): started today, or started yesterday.
      (minute >= window.start && (window.days & today) !== 0) ||
      (minute < window.end && (window.days & yesterday) !== 0)
    ) {
      return true;
    }
  }
  return false;
}

const HOUR_MS = 3_600_000;

/**
 * The first instant at which the wall clock of {@link scheduleWallClock} reads `wall` or later. That clock never
 * goes back, so a bisection finds it; zones' offsets lie within -12 and +14 hours, and a repeated hour holds it
 * at most an hour or two, so the instant lies within 15 hours of `wall` read as UTC.
 */
function instantOfWall(zone: string, wall: number): number {
  let before = wall - 15 * HOUR_MS;
  let reached = wall + 15 * HOUR_MS;
  while (reached - before > MINUTE_MS) {
    const middle = before + Math.floor((reached - before) / 2 / MINUTE_MS) * MINUTE_MS;
    if (scheduleWallClock(zone, middle) >= wall) reached = middle;
    else before = middle;
  }
  return reached;
}

/** Wall-clock values (ms since 1970-01-01 local) at which a window of `schedule` starts or ends, from `firstDay`. */
function boundaries(schedule: Schedule, firstDay: number, days: number): number[] {
  const found: number[] = [];
  for (let day = firstDay; day < firstDay + days; day += 1) {
    const weekday = 1 << ((((day + 4) % 7) + 7) % 7);
    for (const window of compiled(schedule)) {
      if ((window.days & weekday) === 0) continue;
      found.push(day * DAY_MS + window.start * MINUTE_MS);
      found.push((window.end > window.start ? day : day + 1) * DAY_MS + window.end * MINUTE_MS);
    }
  }
  return found.sort((a, b) => a - b);
}

/**
 * The first instant after `atMs` at which {@link isScheduleActive} changes, or null when it does not change
 * within a week (a schedule that covers every minute of it): what an edge needs to know how long a decision
 * stays true.
 */
export function nextScheduleChange(schedule: Schedule, zone: string, atMs: number): number | null {
  const active = isScheduleActive(schedule, zone, atMs);
  const wall = scheduleWallClock(zone, atMs);
  const today = Math.floor(wall / DAY_MS);
  // From yesterday, for windows that started then and end today; eight days ahead, so a week is covered.
  for (const boundary of boundaries(schedule, today - 1, 10)) {
    if (boundary <= wall) continue;
    const instant = instantOfWall(zone, boundary);
    if (isScheduleActive(schedule, zone, instant) !== active) return instant;
  }
  return null;
}
