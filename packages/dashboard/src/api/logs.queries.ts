import type { LogQueryOptions, QueryResult } from '@svc/sdk';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from './client.js';
import { userTimeZone } from './user-time-zone.js';

/** The user's zone as `tz` (issue 38): times come back in its offset. */
function zoned(): { tz?: string } {
  const zone = userTimeZone();
  return zone === undefined ? {} : { tz: zone };
}

/** A profile's query log (its devices, which the filters name, are `profilesQueries.devices`). */
const logsKeys = {
  search: (profileId: string, filterKey: string) =>
    ['profiles', profileId, 'logs', 'search', filterKey] as const,
};

/** Rows a page of a search asks for: the API's most, so that 10 000 rows take ten round trips. */
const SEARCH_PAGE_ROWS = 1000;

export const logsQueries = {
  /** A search (`mode=search`), newest first, page after page. */
  search: (
    profileId: string,
    filters: Omit<LogQueryOptions, 'mode' | 'cursor' | 'limit'>,
    filterKey: string,
  ) =>
    infiniteQueryOptions({
      queryKey: logsKeys.search(profileId, filterKey),
      queryFn: ({ pageParam }): Promise<QueryResult> =>
        api.profiles.logs.query(profileId, {
          ...zoned(),
          ...filters,
          mode: 'search',
          limit: SEARCH_PAGE_ROWS,
          ...(pageParam === undefined ? {} : { cursor: pageParam }),
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      staleTime: 60_000,
    }),
};
