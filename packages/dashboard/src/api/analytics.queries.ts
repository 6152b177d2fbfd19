import type { AnalyticsQueryOptions, AnalyticsShape } from '@svc/sdk';
import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';
import { userTimeZone } from './user-time-zone.js';

/** The window and bucket of a set of analytics panels. */
export interface AnalyticsWindow {
  from: string;
  to: string;
  /** Timeline bucket in seconds. */
  bucket: number;
}

/** A profile's analytics, per shape and window. */
const analyticsKeys = {
  all: (profileId: string) => ['profiles', profileId, 'analytics'] as const,
  shape: (profileId: string, shape: AnalyticsShape, window: AnalyticsWindow) =>
    [...analyticsKeys.all(profileId), shape, window.from, window.to, window.bucket] as const,
};

/** Rows of each top list. */
const TOP_ROWS = 10;

/** What each shape is asked with: the bucket for the timeline, a limit for the top lists. */
function optionsOf(shape: AnalyticsShape, window: AnalyticsWindow): AnalyticsQueryOptions {
  const zone = userTimeZone();
  const range = { from: window.from, to: window.to, ...(zone === undefined ? {} : { tz: zone }) };
  if (shape === 'timeline') return { ...range, bucket: window.bucket };
  if (shape === 'counts_by_status') return range;
  return { ...range, limit: TOP_ROWS };
}

export const analyticsQueries = {
  /** One shape over the window, its rows typed by the SDK (`result.records`). */
  shape: <S extends AnalyticsShape>(profileId: string, shape: S, window: AnalyticsWindow) =>
    queryOptions({
      queryKey: analyticsKeys.shape(profileId, shape, window),
      queryFn: () => api.profiles.analytics.query(profileId, shape, optionsOf(shape, window)),
      staleTime: 60_000,
    }),
};
