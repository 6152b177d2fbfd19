import type { LogQueryOptions, QueryResult } from '@svc/sdk';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client.js';
import { type LogRow, logRowsOf } from './log-row.js';
import { MAX_ROWS } from './use-live-tail.js';

/** Rows a page of a search asks for: the API's most, so that 10 000 rows take ten round trips. */
const PAGE_ROWS = 1000;

/** A search of the log (`mode=search`), newest first, page after page up to {@link MAX_ROWS} rows. */
export function useLogSearch(
  profileId: string,
  filters: Omit<LogQueryOptions, 'mode' | 'cursor' | 'limit'>,
  filterKey: string,
  enabled: boolean,
) {
  const search = useInfiniteQuery({
    queryKey: ['profiles', profileId, 'logs', 'search', filterKey],
    queryFn: ({ pageParam }): Promise<QueryResult> =>
      api.profiles.logs.query(profileId, { ...filters, mode: 'search', limit: PAGE_ROWS, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled,
    staleTime: 60_000,
  });
  const rows = useMemo<LogRow[]>(
    () => (search.data?.pages ?? []).flatMap((page) => logRowsOf(page)),
    [search.data],
  );
  const partial = search.data?.pages.find((page) => page.partial);
  return {
    search,
    rows,
    /** More pages exist and the page may hold them. */
    canLoadMore: search.hasNextPage && rows.length < MAX_ROWS,
    /** The search was cut short at the page's limit: older matches exist beyond it. */
    capped: search.hasNextPage && rows.length >= MAX_ROWS,
    partialReason: partial?.partial_reason,
    noLogs: search.data?.pages[0]?.source === 'none',
  };
}
