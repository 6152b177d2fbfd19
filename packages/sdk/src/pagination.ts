/** One page as every list answers it: items under the resource's plural name, and next_cursor. */
export type PageFetcher<T> = (
  cursor: string | undefined,
) => Promise<{ items: T[]; nextCursor: string | null }>;

/**
 * Auto-paging over a list: iterate with `for await` to get every item across pages, or collect with a cap.
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: PageFetcher<T>) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * One page: the items after `cursor` (the first page without one) and the cursor of the next page, null on
   * the last. For interfaces that fetch a page at a time ("load more") instead of iterating.
   */
  page(cursor?: string): Promise<{ items: T[]; nextCursor: string | null }> {
    return this.fetchPage(cursor);
  }

  /** Collects at most `max` items (default 10 000), so that a huge list cannot exhaust memory by accident. */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}
