/**
 * Offsets of IANA zones from UTC, read once per zone and year from the runtime's zone database (`Intl`) and
 * kept: a schedule is evaluated for every query at the edge, and one `formatToParts` call costs more than the
 * whole evaluation from the kept transitions.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A change of a zone's offset: from `at` on, local time is `at + after` instead of `at + before`. */
interface ZoneTransition {
  at: number;
  before: number;
  after: number;
}

/** A zone's offsets over one UTC calendar year: the offset at its first instant and its changes, in order. */
interface ZoneYear {
  first: number;
  /** Changes at instants from the year's first to the next year's first, both included. */
  transitions: ZoneTransition[];
}

const formats = new Map<string, Intl.DateTimeFormat>();
const years = new Map<string, ZoneYear>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The zone's offset at a whole-second instant, in milliseconds, as the runtime's database states it. */
function intlOffset(zone: string, atMs: number): number {
  const fields: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(atMs)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const local = Date.UTC(
    fields.year ?? 1970,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
  );
  return local - (atMs - (((atMs % 1000) + 1000) % 1000));
}

/** The first whole minute in (lo, hi] at which the offset is no longer `before` (one change in between). */
function transitionBetween(
  zone: string,
  lo: number,
  hi: number,
  before: number,
  after: number,
): ZoneTransition {
  let low = lo;
  let high = hi;
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (intlOffset(zone, middle) === before) low = middle;
    else high = middle;
  }
  return { at: high, before, after };
}

/**
 * The zone's year, sampled daily: zones change their offset at most a few times a year and never twice within
 * a day, so a day whose ends differ holds exactly one change, found to the minute by bisection.
 */
function zoneYear(zone: string, year: number): ZoneYear {
  const key = `${zone}\n${year}`;
  const kept = years.get(key);
  if (kept !== undefined) return kept;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const first = intlOffset(zone, start);
  const transitions: ZoneTransition[] = [];
  let previous = first;
  // A year is a whole number of days, so the last sample is the next year's first instant.
  for (let at = start + DAY_MS; at <= end; at += DAY_MS) {
    const offset = intlOffset(zone, at);
    if (offset !== previous) transitions.push(transitionBetween(zone, at - DAY_MS, at, previous, offset));
    previous = offset;
  }
  const computed = { first, transitions };
  years.set(key, computed);
  return computed;
}

/** A stretch of time over which a zone's offset stays the same, with the change that began it. */
interface OffsetSpan {
  from: number;
  /** The next change (exclusive), or the end of the UTC year the span was read in. */
  until: number;
  offset: number;
  /** The last change at or before `from`, if the zone has one within the year before. */
  lastTransition: ZoneTransition | undefined;
}

/** The span each zone was last asked about: queries come in time order, so nearly every call hits it. */
const lastSpans = new Map<string, OffsetSpan>();

function spanAt(zone: string, atMs: number): OffsetSpan {
  const year = new Date(atMs).getUTCFullYear();
  const current = zoneYear(zone, year);
  const { transitions } = current;
  let index = -1;
  while (index + 1 < transitions.length && (transitions[index + 1] as ZoneTransition).at <= atMs) index += 1;
  const until = transitions[index + 1]?.at ?? Date.UTC(year + 1, 0, 1);
  const last = transitions[index];
  if (last !== undefined) return { from: last.at, until, offset: last.after, lastTransition: last };
  const before = zoneYear(zone, year - 1).transitions.at(-1);
  return { from: Date.UTC(year, 0, 1), until, offset: current.first, lastTransition: before };
}

/** The zone's offset at `atMs` and its last change at or before it (within the year before, if any). */
export function zoneOffsetAt(zone: string, atMs: number): OffsetSpan {
  const kept = lastSpans.get(zone);
  if (kept !== undefined && atMs >= kept.from && atMs < kept.until) return kept;
  const span = spanAt(zone, atMs);
  lastSpans.set(zone, span);
  return span;
}
