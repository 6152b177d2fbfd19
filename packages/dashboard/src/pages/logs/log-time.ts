import { formatDayAndTime, formatFullDateTime, formatTimeOfDay } from '../../i18n/format.js';

const today = () => new Date().toDateString();

/** A row's time, short: the time of day for today's rows, with the date for older ones. */
export function shortTime(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === today() ? formatTimeOfDay(date) : formatDayAndTime(date);
}

/** A row's time in full, for its details. */
export function fullTime(iso: string): string {
  return formatFullDateTime(new Date(iso));
}
