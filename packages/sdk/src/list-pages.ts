import { Paginator } from './pagination.js';
import type { ApiRequest, Transport } from './transport.js';

/**
 * Auto-paging over a list answering `{<itemsKey>: [...], next_cursor}` (ROUTES.md "Conventions"): each page
 * passes the previous page's `next_cursor` until it is null. Internal: resources and `SvcClient.list` share it.
 */
export function listPages<T>(
  transport: Transport,
  path: string,
  itemsKey: string,
  query: ApiRequest['query'] = {},
): Paginator<T> {
  return new Paginator<T>(async (cursor) => {
    const page = await transport.send<Record<string, unknown>>({
      method: 'GET',
      path,
      query: { ...query, cursor },
    });
    const items = page.data[itemsKey];
    const next = page.data.next_cursor;
    return {
      items: Array.isArray(items) ? (items as T[]) : [],
      nextCursor: typeof next === 'string' ? next : null,
    };
  });
}
