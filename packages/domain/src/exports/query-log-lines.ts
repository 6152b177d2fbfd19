import { noLogFilters } from '../query-log/log-query.js';
import type { QueryLogReader } from '../query-log/log-query.ports.js';
import { type QueryLogRow, storedColumnsOf } from '../query-log/query-log-row.js';

/** Log rows read per query while exporting: a profile's log is read in bounded pages, newest first. */
const EXPORT_LOG_BATCH = 1000;

/** Reads log rows; the columnar store's reader (spec 4.6) in the server. */
export type ExportLogReader = Pick<QueryLogReader, 'rows'>;

/** One stored query as an archive line (`type: query_log`), with the column names of spec 2.11. */
export function queryLogLine(row: QueryLogRow): string {
  const { row_id, pop, ...rest } = storedColumnsOf(row);
  return JSON.stringify({
    type: 'query_log',
    profile_id: row.profileId,
    ts: row.ts.toISOString(),
    row_id,
    pop,
    node: row.node,
    ...rest,
  });
}

/**
 * Every stored query of a profile up to `until`, newest first, page by page (keyset on time and row id, so a
 * row written meanwhile neither repeats nor shifts a page): each page is handed over before the next is read.
 */
export async function* profileLogPages(
  reader: ExportLogReader,
  profileId: string,
  until: Date,
): AsyncGenerator<QueryLogRow[]> {
  let position: { ts: number; rowId: string } | null = null;
  for (;;) {
    const page = await reader.rows(
      {
        shape: 'search',
        profileId,
        range: { from: null, to: until },
        filters: noLogFilters(),
        limit: EXPORT_LOG_BATCH,
        bucketSeconds: 0,
        position,
      },
      EXPORT_LOG_BATCH,
    );
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < EXPORT_LOG_BATCH || last === undefined) return;
    position = { ts: last.ts.getTime(), rowId: last.rowId };
  }
}
