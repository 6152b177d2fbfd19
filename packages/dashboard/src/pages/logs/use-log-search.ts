import type { LogQueryOptions } from '@svc/sdk';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { logsQueries } from '../../api/logs.queries.js';
import { type LogRow, logRowsOf } from './log-row.js';
import { MAX_ROWS } from './use-live-tail.js';

/** A search's state as the logs page uses it. */
export type LogSearch = ReturnType<typeof useLogSearch>;

/** A search of the log (`mode=search`), newest first, page after page up to {@link MAX_ROWS} rows. */
export function useLogSearch(
  profileId: string,
  filters: Omit<LogQueryOptions, 'mode' | 'cursor' | 'limit'>,
  filterKey: string,
  enabled: boolean,
) {
  const search = useInfiniteQuery({ ...logsQueries.search(profileId, filters, filterKey), enabled });
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
