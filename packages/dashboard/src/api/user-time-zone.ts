/**
 * The browser's IANA zone, sent as `tz` with logs and analytics (issue 38) so that timeline buckets are the
 * user's local hours and days; undefined when the browser names none (the API then answers in UTC).
 */
export function userTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone === undefined || zone === '' ? undefined : zone;
}
