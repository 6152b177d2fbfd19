import { type InfiniteData, type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** One page of an operator list, as `Paginator.page` answers it. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** An operator list fetched a page at a time (`Paginator.page`), newest or most urgent first. */
export function usePagedList<T>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
) {
  return useInfiniteQuery<ListPage<T>, Error, InfiniteData<ListPage<T>>, QueryKey, string | undefined>({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/**
 * A paged list's states around its rendering: loading, its problem (403 mfa_required says how to sign in
 * more strongly), empty, the items, and a button for the next page.
 */
export function PagedList<T>({
  list,
  empty,
  more,
  children,
}: {
  list: ReturnType<typeof usePagedList<T>>;
  empty: string;
  more: string;
  children: (items: T[]) => ReactNode;
}) {
  if (list.isPending) return <p aria-busy="true">{t('common.loading')}</p>;
  if (list.isError)
    return <ProblemDisplay problem={problemOf(list.error)} onRetry={() => void list.refetch()} />;
  const items = list.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <>
      {children(items)}
      {list.hasNextPage && (
        <button
          type="button"
          disabled={list.isFetchingNextPage}
          aria-busy={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {more}
        </button>
      )}
    </>
  );
}
