import { formatDateTime } from '../i18n/format.js';

/** A date-time from the API, in the reader's locale and time zone, machine-readable in `dateTime`. */
export function DateTime({ value, fallback = '—' }: { value: string | null | undefined; fallback?: string }) {
  if (value === null || value === undefined) return <>{fallback}</>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}
