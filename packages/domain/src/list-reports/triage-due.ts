const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Business time a list report waits for triage: two business days (spec 2.6), counted as 48 business hours. */
export const TRIAGE_BUSINESS_MS = 2 * DAY_MS;

/** Midnight UTC starting the day of `ms`. */
function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * When a list report is due for triage: two business days (Monday to Friday, UTC) after it was created
 * (spec 2.6). Precisely: business time runs only from Monday 00:00 to Saturday 00:00 UTC, and the report is
 * due at the first instant by which 48 hours of business time have passed since `createdAt`. So:
 * - a weekday creation is due two weekdays later at the same time of day, across the weekend when it lies
 *   between (Monday 10:00 → Wednesday 10:00; Friday 15:00 → Tuesday 15:00; Thursday 10:00 → Monday 10:00);
 * - a weekend creation waits for Monday 00:00 and is due two whole business days later, at the end of
 *   Tuesday (Saturday 10:00 or Sunday 23:59 → Wednesday 00:00);
 * - a creation at Thursday 00:00 exactly uses up Thursday and Friday and is due at the end of Friday,
 *   written Saturday 00:00 (the first instant with 48 business hours behind it).
 * The due time is never strictly inside a weekend; milliseconds are kept.
 */
export function triageDueAt(createdAt: Date): Date {
  let at = createdAt.getTime();
  if (Number.isNaN(at)) throw new RangeError('triageDueAt needs a valid date');
  let remaining = TRIAGE_BUSINESS_MS;
  for (;;) {
    const weekday = new Date(at).getUTCDay(); // 0 Sunday … 6 Saturday
    if (weekday === 0 || weekday === 6) {
      at = dayStart(at) + (weekday === 6 ? 2 : 1) * DAY_MS;
      continue;
    }
    const weekEnd = dayStart(at) + (6 - weekday) * DAY_MS; // Saturday 00:00 after this weekday
    if (remaining <= weekEnd - at) return new Date(at + remaining);
    remaining -= weekEnd - at;
    at = weekEnd;
  }
}
