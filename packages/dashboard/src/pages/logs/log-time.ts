const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

const today = () => new Date().toDateString();

/** A row's time, short: the time of day for today's rows, with the date for older ones. */
export function shortTime(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === today() ? time.format(date) : dayAndTime.format(date);
}

/** A row's time in full, for its details. */
export function fullTime(iso: string): string {
  return full.format(new Date(iso));
}
