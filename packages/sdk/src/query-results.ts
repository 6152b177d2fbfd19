import type { QueryResult } from '@svc/domain';

/** One cell of a query result: time as RFC 3339, bytes as base64, NULL as null, answer_ips as an array. */
export type QueryCell = QueryResult['rows'][number][number];

/**
 * The rows of a query result as records keyed by column name. Read results by column name, never by position:
 * within /v1 new columns are only appended (spec 9.2, 9.3).
 */
export function queryRecords<T extends Record<string, QueryCell> = Record<string, QueryCell>>(
  result: Pick<QueryResult, 'columns' | 'rows'>,
): T[] {
  const names = result.columns.map((column) => column.name);
  return result.rows.map(
    (row) => Object.fromEntries(names.map((name, index) => [name, row[index] ?? null])) as T,
  );
}
