/** One deprecated item in use by a request or response (spec section 9). */
export interface Deprecation {
  /** UTC day of the deprecation, YYYY-MM-DD. */
  deprecatedOn: string;
  /** UTC day of the sunset, YYYY-MM-DD; at least 90 days later. */
  sunset: string;
}

function midnightUtc(day: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a day: ${day}`);
  return date;
}

/**
 * `Deprecation` (RFC 9745, `@<unix seconds>`) and `Sunset` (RFC 8594, IMF-fixdate) headers for the items in use;
 * with several, the earliest dates are sent. No items, no headers.
 */
export function deprecationHeaders(items: readonly Deprecation[]): Record<string, string> {
  if (items.length === 0) return {};
  const deprecatedOn = Math.min(...items.map((item) => midnightUtc(item.deprecatedOn).getTime()));
  const sunset = Math.min(...items.map((item) => midnightUtc(item.sunset).getTime()));
  return { Deprecation: `@${Math.floor(deprecatedOn / 1000)}`, Sunset: new Date(sunset).toUTCString() };
}
