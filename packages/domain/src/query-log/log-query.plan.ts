import { DomainError } from '../shared/domain-error.js';
import { filtersByTimeOnly, type LogQuery } from './log-query.js';
import type { CountSource } from './log-query.ports.js';
import { enclosingHours } from './log-query.range.js';
import type { QuerySource } from './log-query.schemas.js';
import { queryCost } from './query-budget.js';

/** A profile's log destination (spec 2.3 settings.log_destination). */
export type LogDestination = 'cloud' | 'self-hosted' | 'both' | 'none';

/** How a query is answered: by whom, from what, over which range, and what it costs. */
export interface QueryPlan {
  source: QuerySource;
  /** For the columnar store: per-query rows or hourly totals. */
  counts: CountSource;
  /** The query as it runs (the range widened to whole hours when answered from hourly totals). */
  query: LogQuery;
  /** Budget units (spec 8); 0 for what the columnar store does not answer. */
  cost: number;
}

/**
 * Routes a validated query (spec 4.6 and its rules 1–2): counts_by_status and timeline filtered by time only
 * come from the hourly totals, in whole hours, whatever the destination (when a columnar store is configured);
 * everything else follows the destination: cloud and both → the columnar store (501 not_implemented without
 * one), self-hosted → the profile's node, none → an empty result.
 */
export function planQuery(
  query: LogQuery,
  destination: LogDestination,
  columnarConfigured: boolean,
): QueryPlan {
  const countsShape = query.shape === 'counts_by_status' || query.shape === 'timeline';
  if (countsShape && columnarConfigured && filtersByTimeOnly(query.filters)) {
    const range = enclosingHours(query.range);
    const rangeMs = range.to.getTime() - (range.from?.getTime() ?? range.to.getTime());
    return {
      source: 'columnar',
      counts: 'totals',
      query: { ...query, range },
      cost: queryCost('totals', rangeMs),
    };
  }
  if (destination === 'none') return { source: 'none', counts: 'rows', query, cost: 0 };
  if (destination === 'self-hosted') {
    refuseWhatNodesCannotAnswer(query);
    return { source: 'node', counts: 'rows', query, cost: 0 };
  }
  if (!columnarConfigured) {
    throw new DomainError('not_implemented', 'This server has no columnar store configured for query logs.');
  }
  const rangeMs = query.range.to.getTime() - (query.range.from?.getTime() ?? query.range.to.getTime());
  const cost = query.shape === 'tail' ? queryCost('tail', rangeMs) : queryCost('rows', rangeMs);
  return { source: 'columnar', counts: 'rows', query, cost };
}

/**
 * The node link does not carry `decided_by` (docs/node-link-protocol.md): rather than a node's answer that
 * silently ignores it, such a query of a self-hosted profile is 501 shape_unsupported (ADR 0045). `tz` is not
 * carried either: a node's timeline keeps UTC buckets, its times shown in the zone's offset.
 */
function refuseWhatNodesCannotAnswer(query: LogQuery): void {
  if ((query.filters.decidedBy ?? null) !== null) {
    throw new DomainError('shape_unsupported', 'Self-hosted nodes cannot filter by decided_by yet.');
  }
}
