import { type CursorSealer, type Page, pageFrom } from './pagination.js';

/**
 * A page request in newest-first keyset order (created_at descending, id descending): at most `limit` rows
 * strictly after `after`. Repositories fetch `limit` rows; callers ask for one more than they show.
 */
export interface KeysetPage {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

/** True when `row` comes strictly after `after` in newest-first order (for in-memory repositories). */
export function isAfterKeyset(row: { createdAt: Date; id: string }, after: KeysetPage['after']): boolean {
  if (after === null) return true;
  const difference = row.createdAt.getTime() - after.createdAt.getTime();
  return difference < 0 || (difference === 0 && row.id < after.id);
}

/** Newest-first comparison (created_at descending, id descending). */
export function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const difference = b.createdAt.getTime() - a.createdAt.getTime();
  if (difference !== 0) return difference;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * One page of a newest-first list with a sealed cursor: opens `cursor` for the list named `list`, fetches one
 * row more than `limit` through `fetch`, and seals the position after the last row shown.
 */
export async function pageNewestFirst<T extends { createdAt: Date; id: string }>(
  cursors: CursorSealer,
  list: string,
  limit: number,
  cursor: string | undefined,
  fetch: (page: KeysetPage) => Promise<T[]>,
): Promise<Page<T>> {
  const position = cursor === undefined ? null : cursors.open(list, cursor);
  const after =
    position === null ? null : { createdAt: new Date(String(position.t)), id: String(position.i) };
  const rows = await fetch({ limit: limit + 1, after });
  return pageFrom(rows, limit, cursors, list, (row) => ({ t: row.createdAt.toISOString(), i: row.id }));
}
