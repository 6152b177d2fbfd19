import { DomainError, validationFailed } from '../shared/domain-error.js';
import type { AnalyticsQuery, LogFilters } from './log-query.js';
import { resolveRange } from './log-query.range.js';
import {
  type AnalyticsQueryParameters,
  type AnalyticsShape,
  LOG_LIMIT_DEFAULT,
  type LogQueryParameters,
  TOP_POPS_LIMIT_DEFAULT,
  TOP_POPS_LIMIT_MAX,
} from './log-query.schemas.js';

/** The parameters both endpoints share, after their schemas. */
type CommonParameters = Omit<LogQueryParameters, 'mode'>;

/** The filters of a request; `qnameMatch` says how its qname matches (search: substring). */
export function filtersOf(parameters: CommonParameters, qnameMatch: LogFilters['qnameMatch']): LogFilters {
  return {
    devices: parameters.device ?? [],
    statuses: parameters.status ?? [],
    qname: parameters.qname ?? null,
    qnameMatch,
    qtypes: parameters.qtype ?? [],
    lists: parameters.list ?? [],
    clientIp: parameters.client_ip ?? null,
    decidedBy: parameters.decided_by ?? null,
  };
}

/** The validated query of an analytics request (400 invalid_cursor, 422 for limit and range). */
export function analyticsQueryOf(
  profileId: string,
  shape: AnalyticsShape,
  parameters: AnalyticsQueryParameters,
  now: Date,
): AnalyticsQuery {
  if (parameters.cursor !== undefined) {
    // Analytics results are whole: no analytics answer carries a cursor to continue.
    throw new DomainError(
      'invalid_cursor',
      'Analytics results have no pages; this cursor was not issued here.',
    );
  }
  const maxLimit = shape === 'top_pops' ? TOP_POPS_LIMIT_MAX : Number.POSITIVE_INFINITY;
  if (parameters.limit !== undefined && parameters.limit > maxLimit) {
    throw validationFailed([
      { field: 'limit', message: `must be between 1 and ${TOP_POPS_LIMIT_MAX} for top_pops` },
    ]);
  }
  return {
    shape,
    profileId,
    range: resolveRange(shape, parameters.from, parameters.to, now),
    filters: filtersOf(parameters, 'exact'),
    limit: parameters.limit ?? (shape === 'top_pops' ? TOP_POPS_LIMIT_DEFAULT : LOG_LIMIT_DEFAULT),
    bucketSeconds: parameters.bucket,
    position: null,
    timeZone: parameters.tz,
  };
}
