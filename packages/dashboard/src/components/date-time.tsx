const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A date-time from the API, in the reader's locale and time zone, machine-readable in `dateTime`. */
export function DateTime({ value, fallback = '—' }: { value: string | null | undefined; fallback?: string }) {
  if (value === null || value === undefined) return <>{fallback}</>;
  return <time dateTime={value}>{format.format(new Date(value))}</time>;
}
