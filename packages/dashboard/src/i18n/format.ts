/**
 * Dates, numbers and relative times in the reader's locale and time zone (the browser's), through `Intl`: never
 * formatted by hand, so that another language needs no code change.
 */
const locale: string | undefined = typeof navigator === 'undefined' ? undefined : navigator.language;

const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
const integer = new Intl.NumberFormat(locale);
const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

/** "27 Nov 2026, 21:05" in the reader's manner. */
export function formatDateTime(value: Date | string): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value);
}

/** "12,345". */
export function formatNumber(value: number): string {
  return integer.format(value);
}

/** A share from 0 to 1 as "12.5%". */
export function formatPercent(share: number): string {
  return percent.format(share);
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** "in 5 minutes", "2 hours ago": `value` relative to `now`, in the largest whole unit. */
export function formatRelative(value: Date | string, now: Date = new Date()): string {
  const seconds = Math.round(
    ((typeof value === 'string' ? new Date(value) : value).getTime() - now.getTime()) / 1000,
  );
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second')
      return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, 'second');
}

const milliseconds = new Intl.NumberFormat(locale, {
  style: 'unit',
  unit: 'millisecond',
  unitDisplay: 'short',
  maximumFractionDigits: 1,
});

/** A duration in microseconds (the log's `latency_us`) as "12.3 ms". */
export function formatLatency(microseconds: number): string {
  return milliseconds.format(microseconds / 1000);
}

const timeOfDay = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(locale, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const fullDateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long' });

/** "21:05:09": a time of today, to the second. */
export function formatTimeOfDay(value: Date): string {
  return timeOfDay.format(value);
}

/** "27 Nov, 21:05:09": an earlier day's time, to the second. */
export function formatDayAndTime(value: Date): string {
  return dayAndTime.format(value);
}

/** "Friday, 27 November 2026 at 21:05:09 GMT+1": a moment in full, with its time zone. */
export function formatFullDateTime(value: Date): string {
  return fullDateTime.format(value);
}

const weekdayNames = {
  long: new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }),
  short: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }),
};
const WEEKDAY_ORDER = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A schedule's day (`mon` … `sun`) in the reader's language: "Monday", or "Mon" when `short`. */
export function formatWeekday(day: string, width: 'long' | 'short' = 'long'): string {
  // 2024-01-01 was a Monday.
  return weekdayNames[width].format(new Date(Date.UTC(2024, 0, 1 + WEEKDAY_ORDER.indexOf(day))));
}

const wallTime = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** A local wall time `HH:MM` of a schedule as the reader writes times ("21:30", "9:30 PM"). */
export function formatWallTime(value: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (match === null) return value;
  return wallTime.format(new Date(Date.UTC(2024, 0, 1, Number(match[1]), Number(match[2]))));
}
