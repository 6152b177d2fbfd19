import type { QueryLogRow } from '@svc/domain';

/**
 * Expected answers computed in the test, independently of the server's code, from the rows the test wrote.
 */

/** (ts, row_id) descending: the order of log results. */
export function newestFirst(rows: readonly QueryLogRow[]): QueryLogRow[] {
  return [...rows].sort((a, b) => {
    const difference = b.ts.getTime() - a.ts.getTime();
    if (difference !== 0) return difference;
    const ia = BigInt(a.rowId);
    const ib = BigInt(b.rowId);
    return ia < ib ? 1 : ia > ib ? -1 : 0;
  });
}

/** Groups rows by `key` (rows with a null key left out), count descending, key ascending, at most `limit`. */
export function topBy(
  rows: readonly QueryLogRow[],
  key: (row: QueryLogRow) => string | string[] | null,
  limit = 100,
): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const value = key(row);
    if (value === null) continue;
    for (const one of Array.isArray(value) ? [...new Set(value)] : [value]) {
      counts.set(one, (counts.get(one) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort(([ka, ca], [kb, cb]) => cb - ca || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, limit);
}

/** Counts by status in the spec's status order. */
export function countsByStatus(rows: readonly QueryLogRow[]): [string, number][] {
  return (['allowed', 'blocked', 'rewritten', 'error'] as const).map((status) => [
    status,
    rows.filter((row) => row.status === status).length,
  ]);
}

/** The reason columns of spec 2.11 as the test reads the rules. */
export function expectedReason(row: QueryLogRow): [string, string, number, string] {
  if (row.status === 'rewritten')
    return [row.reasonRule === '' ? '' : `=${row.reasonRule}`, 'rewrite', 0, ''];
  if (row.status !== 'blocked') return ['', 'none', 0, ''];
  if (row.operatorCode !== '') return [row.reasonRule, `operator:${row.operatorCode}`, 15, row.reasonRule];
  if (row.reasonListId !== null) return [row.reasonListName, 'list', 17, row.reasonListName];
  return [row.reasonRule, 'rule', 17, row.reasonRule];
}

/** Rows in [from, to). */
export function within(rows: readonly QueryLogRow[], from: Date, to: Date): QueryLogRow[] {
  return rows.filter((row) => row.ts >= from && row.ts < to);
}
