import { DomainError, validationFailed } from '../shared/domain-error.js';
import type { QueryShape } from './log-query.schemas.js';

const DAY_MS = 86_400_000;

/**
 * Longest from..to of each shape in days (spec 8); null is uncapped (tail). A query without `from` starts
 * that long before `to`; a tail without `from` has no lower bound.
 */
export const RANGE_CAP_DAYS: Readonly<Record<QueryShape, number | null>> = {
  tail: null,
  search: 31,
  top_devices: 31,
  destinations: 31,
  top_pops: 31,
  counts_by_status: 400,
  timeline: 400,
  top_domains: 400,
  top_blocked: 400,
  top_reasons: 400,
  top_owners: 400,
};

/** The time range of a query: `from` inclusive (null: unbounded), `to` exclusive. */
export interface QueryRange {
  from: Date | null;
  to: Date;
}

/**
 * The range of a `shape` query from its parameters: defaults per shape, 422 validation_failed naming `from`
 * when it is after `to`, 422 range_too_large naming `from` when wider than the shape allows.
 */
export function resolveRange(
  shape: QueryShape,
  from: Date | undefined,
  to: Date | undefined,
  now: Date,
): QueryRange {
  const end = to ?? now;
  const capDays = RANGE_CAP_DAYS[shape];
  const capMs = capDays === null ? null : capDays * DAY_MS;
  if (from === undefined) {
    return { from: capMs === null ? null : new Date(end.getTime() - capMs), to: end };
  }
  if (from.getTime() > end.getTime()) {
    throw validationFailed([{ field: 'from', message: 'must not be after to' }]);
  }
  if (capMs !== null && end.getTime() - from.getTime() > capMs) {
    throw new DomainError('range_too_large', `A ${shape} query covers at most ${capDays} days.`, {
      fieldErrors: [{ field: 'from', message: `from..to must span at most ${capDays} days for ${shape}` }],
    });
  }
  return { from, to: end };
}

/** The range widened to whole hours: hourly totals answer for the enclosing hours (spec 4.6 rule 1). */
export function enclosingHours(range: QueryRange): QueryRange {
  const HOUR = 3_600_000;
  const to = Math.ceil(range.to.getTime() / HOUR) * HOUR;
  return {
    from: range.from === null ? null : new Date(Math.floor(range.from.getTime() / HOUR) * HOUR),
    to: new Date(to),
  };
}
