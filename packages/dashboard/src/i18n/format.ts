/**
 * Dates, numbers and durations in the reader's locale and time zone (the browser's), through `Intl`: never
 * formatted by hand, so that another language needs no code change.
 */
const locale: string | undefined = typeof navigator === 'undefined' ? undefined : navigator.language;

const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
const integer = new Intl.NumberFormat(locale);
const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

/** "27 Nov 2026, 21:05" in the reader's manner. */
export function formatDateTime(value: Date | string): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value);
}

/** "27 Nov 2026". */
export function formatDate(value: Date | string): string {
  return dateOnly.format(typeof value === 'string' ? new Date(value) : value);
}

/** "21:05:12". */
export function formatTime(value: Date | string): string {
  return timeOnly.format(typeof value === 'string' ? new Date(value) : value);
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

/** A length of time as "1 h 5 min" (`Intl.NumberFormat` units), largest units first, at most two. */
export function formatDuration(totalSeconds: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(totalSeconds));
  for (const [unit, size] of UNITS) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 && parts.length < 2) {
      parts.push(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(amount));
    }
  }
  return parts.length === 0
    ? new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(0)
    : parts.join(' ');
}
