import type { AnalyticsShape } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { analyticsQueries } from '../../../api/analytics.queries.js';
import type { TimeRange } from '../time-range.js';

/** One shape of the profile's analytics over the range, its rows typed (`data.records`). */
export function useShape<S extends AnalyticsShape>(profileId: string, shape: S, range: TimeRange) {
  return useQuery(
    analyticsQueries.shape(profileId, shape, { from: range.from, to: range.to, bucket: range.bucket }),
  );
}
