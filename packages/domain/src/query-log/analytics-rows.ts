import { deriveColumns, type ReasonCode } from './derived-columns.js';
import type { AnalyticsQuery } from './log-query.js';
import type { QueryLogReader } from './log-query.ports.js';
import type { QueryCell } from './log-query.schemas.js';
import type { AddressOwners } from './owner-classification.js';
import { QUERY_STATUSES, type QueryStatus } from './query-log-row.js';

/* The rows of analytics shapes computed from what the reader answers (spec 4.6). */

/**
 * The query with a shape's status rule applied: `default` uses `statuses` when the query has no status filter;
 * `intersect` keeps only `statuses` of the filter (null when nothing is left).
 */
export function withStatuses(
  query: AnalyticsQuery,
  statuses: QueryStatus[],
  rule: 'default' | 'intersect',
): AnalyticsQuery | null {
  const given = query.filters.statuses;
  if (rule === 'default' && given.length > 0) return query;
  const kept =
    rule === 'default' || given.length === 0 ? statuses : statuses.filter((status) => given.includes(status));
  return kept.length === 0 ? null : { ...query, filters: { ...query.filters, statuses: kept } };
}

/** Timeline rows: one per bucket with queries, oldest first, a count column per status. */
export function timelineRows(
  counts: Array<{ bucket: Date; status: QueryStatus; count: number }>,
): QueryCell[][] {
  const buckets = new Map<number, Map<QueryStatus, number>>();
  for (const row of counts) {
    const at = row.bucket.getTime();
    const byStatus = buckets.get(at) ?? new Map<QueryStatus, number>();
    byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.count);
    buckets.set(at, byStatus);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([at, byStatus]) => [
      new Date(at).toISOString(),
      ...QUERY_STATUSES.map((status) => byStatus.get(status) ?? 0),
    ]);
}

/** top_owners (spec 4.6 rule 6): unclassified queries left out; count descending, ties by owner. */
export function topOwners(
  groups: Array<{ qname: string; answerIps: string[]; count: number }>,
  limit: number,
  owners: AddressOwners,
): QueryCell[][] {
  const counts = new Map<string, number>();
  for (const group of groups) {
    const owner = owners.ownerOfQuery(group.qname, group.answerIps);
    if (owner !== '') counts.set(owner, (counts.get(owner) ?? 0) + group.count);
  }
  return [...counts.entries()]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([owner, count]) => [owner, count]);
}

/**
 * top_reasons (spec 4.6 rule 4): decisions grouped by what decided them through the one derivation of the
 * log rows; count descending, ties by reason_code, list_id, reason.
 */
export function topReasons(
  decisions: Awaited<ReturnType<QueryLogReader['decisions']>>,
  limit: number,
): QueryCell[][] {
  const groups = new Map<
    string,
    { code: ReasonCode; listId: number | null; reason: string; count: number }
  >();
  for (const decision of decisions) {
    const derived = deriveColumns(decision);
    const listId = derived.reasonCode === 'list' ? decision.reasonListId : null;
    const key = JSON.stringify([derived.reasonCode, listId, derived.reason]);
    const group = groups.get(key) ?? { code: derived.reasonCode, listId, reason: derived.reason, count: 0 };
    group.count += decision.count;
    groups.set(key, group);
  }
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()]
    .sort(
      (a, b) =>
        b.count - a.count ||
        text(a.code, b.code) ||
        (a.listId ?? -1) - (b.listId ?? -1) ||
        text(a.reason, b.reason),
    )
    .slice(0, limit)
    .map((group) => [group.code, group.listId, group.reason, group.count]);
}
