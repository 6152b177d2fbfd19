import { z } from 'zod';
import { decodeBase64Url, encodeBase64Url } from '../shared/base64url.js';
import { DomainError } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';

/** Page size of list endpoints (spec section 8): default 50, at most 200. */
const PAGE_LIMIT_DEFAULT = 50;
const PAGE_LIMIT_MAX = 200;
/** Longest cursor a list accepts (spec 4.1.4); log queries accept 512. */
const CURSOR_MAX_LENGTH = 1024;
export const LOG_CURSOR_MAX_LENGTH = 512;

/** Query parameters of every paginated list. */
export const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be between 1 and 200')
    .max(PAGE_LIMIT_MAX, 'limit must be between 1 and 200')
    .default(PAGE_LIMIT_DEFAULT)
    .meta({ description: 'Page size, 1 to 200.', example: 50 }),
  cursor: z.string().optional().meta({ description: 'The previous page’s next_cursor (opaque).' }),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** A position in a keyset ordering: the sort key values of the last row returned. */
export type CursorPosition = Record<string, string | number | boolean | null>;

const CURSOR_PURPOSE = 'cursor';

/**
 * Seals keyset positions into opaque cursors with a keyed MAC, so that any change to a cursor is detected
 * (400 invalid_cursor) and clients cannot page through positions they were never given.
 */
export class CursorSealer {
  constructor(private readonly hash: KeyedHash) {}

  /** The opaque cursor for `position` in the list named `list` (a cursor never crosses lists). */
  seal(list: string, position: CursorPosition): string {
    const body = encodeBase64Url(JSON.stringify({ l: list, p: position }));
    return `${body}.${this.hash.mac(CURSOR_PURPOSE, body)}`;
  }

  /** The position sealed in `cursor`; throws 400 invalid_cursor when it is modified, foreign or too long. */
  open(list: string, cursor: string, maxLength = CURSOR_MAX_LENGTH): CursorPosition {
    const invalid = () => new DomainError('invalid_cursor', 'The cursor is not one this list issued.');
    if (cursor.length === 0 || cursor.length > maxLength) throw invalid();
    const dot = cursor.indexOf('.');
    if (dot <= 0) throw invalid();
    const body = cursor.slice(0, dot);
    if (!this.hash.verify(CURSOR_PURPOSE, body, cursor.slice(dot + 1))) throw invalid();
    let decoded: unknown;
    try {
      decoded = JSON.parse(decodeBase64Url(body));
    } catch (cause) {
      throw new DomainError('invalid_cursor', 'The cursor is not one this list issued.', { cause });
    }
    const parsed = SealedCursor.safeParse(decoded);
    if (!parsed.success || parsed.data.l !== list) throw invalid();
    return parsed.data.p;
  }
}

const SealedCursor = z.object({
  l: z.string(),
  p: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/** One page of a keyset-ordered list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Builds a page from `limit + 1` rows fetched in keyset order: the extra row only tells whether a next page
 * exists, and the cursor points after the last row returned.
 */
export function pageFrom<T>(
  rows: T[],
  limit: number,
  sealer: CursorSealer,
  list: string,
  positionOf: (row: T) => CursorPosition,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last !== undefined ? sealer.seal(list, positionOf(last)) : null;
  return { items, nextCursor };
}
