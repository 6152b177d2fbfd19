/**
 * The order a keyset-paged listing is read in: a timestamp column, then the id that breaks ties between rows of
 * the same instant. Newest first unless `oldestFirst`.
 */
export interface KeysetOrder<Field extends string> {
  /** The timestamp column (`created_at`, `last_seen`, `at`, …). */
  column: string;
  /** The cursor's field holding that column's value (`createdAt`, `lastSeen`, …). */
  field: Field;
  /** The id column's type, which the cursor's id is cast to. */
  idType: 'uuid' | 'text' | 'bigint';
  oldestFirst?: boolean;
}

/** One page of a listing: the last row of the page before it (none for the first page) and the page size. */
export interface KeysetPageQuery<Field extends string> {
  after: ({ id: string } & Record<Field, Date>) | null | undefined;
  limit: number;
}

/** The tail of a keyset-paged SELECT and the values of its parameters. */
export interface KeysetPageSql {
  /** `AND (cursor condition) ORDER BY … LIMIT $n`, to follow the query's own WHERE conditions. */
  sql: string;
  /** To append to the query's own values. */
  values: [Date | null, string | null, number];
}

/**
 * The keyset condition, order and limit of one page, with parameters numbered from `firstParameter` (the
 * query's own parameters come first). The row comparison `(column, id) < ($at, $id)` lets PostgreSQL walk the
 * `(column, id)` index from the cursor, however deep the page; without a cursor it reads the first page.
 */
export function keysetPage<Field extends string>(
  order: KeysetOrder<Field>,
  firstParameter: number,
  page: KeysetPageQuery<Field>,
): KeysetPageSql {
  const at = `$${firstParameter}`;
  const id = `$${firstParameter + 1}`;
  const direction = order.oldestFirst === true ? '' : ' DESC';
  const comparison = order.oldestFirst === true ? '>' : '<';
  return {
    sql: `AND (${at}::timestamptz IS NULL OR (${order.column}, id) ${comparison} (${at}::timestamptz, ${id}::${order.idType}))
       ORDER BY ${order.column}${direction}, id${direction}
       LIMIT $${firstParameter + 2}`,
    values: [page.after?.[order.field] ?? null, page.after?.id ?? null, page.limit],
  };
}
