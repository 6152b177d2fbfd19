import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';

/** The cost budget of spec 8: refill 1,200 units a minute, holding at most one minute's worth. */
export interface QueryBudgetLimits {
  capacity: number;
  refillPerMinute: number;
}

const FREE_PLAN_QUERY_BUDGET: Readonly<QueryBudgetLimits> = Object.freeze({
  capacity: 1_200,
  refillPerMinute: 1_200,
});

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * The cost of a query (spec 8): 1 unit for a tail, 2 units per day (begun) of a range read from the per-query
 * rows, 1 unit per week (begun) of a range read from the hourly totals; at least 1.
 */
export function queryCost(kind: 'tail' | 'rows' | 'totals', rangeMs: number): number {
  if (kind === 'tail') return 1;
  if (kind === 'totals') return Math.max(1, Math.ceil(rangeMs / WEEK_MS));
  return Math.max(2, 2 * Math.ceil(rangeMs / DAY_MS));
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per organisation on this API server, driven by the Clock port. A query costing more than
 * the bucket can ever hold is 422 query_too_expensive (narrowing it is the remedy); one costing more than the
 * bucket holds now is 429 too_many_queries with the seconds until it would fit.
 */
export class QueryBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: QueryBudgetLimits = FREE_PLAN_QUERY_BUDGET,
  ) {}

  /** Takes `cost` units from `orgId`'s bucket or throws. */
  take(orgId: string, cost: number): void {
    if (cost > this.limits.capacity) {
      throw new DomainError(
        'query_too_expensive',
        `This query costs ${cost} units and can never fit the budget of ${this.limits.capacity}: narrow the range or add filters.`,
      );
    }
    const now = this.clock.now().getTime();
    const perMs = this.limits.refillPerMinute / 60_000;
    const bucket = this.buckets.get(orgId) ?? { tokens: this.limits.capacity, at: now };
    const tokens = Math.min(this.limits.capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    if (tokens < cost) {
      this.buckets.set(orgId, { tokens, at: now });
      throw new DomainError('too_many_queries', 'The query budget of this organisation is spent for now.', {
        retryAfter: Math.max(1, Math.ceil((cost - tokens) / perMs / 1000)),
      });
    }
    const left = tokens - cost;
    if (left >= this.limits.capacity) this.buckets.delete(orgId);
    else this.buckets.set(orgId, { tokens: left, at: now });
  }

  /** Gives back `cost` units taken for a query that was not answered after all (its profile not found). */
  refund(orgId: string, cost: number): void {
    const bucket = this.buckets.get(orgId);
    if (bucket === undefined) return;
    const tokens = bucket.tokens + cost;
    if (tokens >= this.limits.capacity) this.buckets.delete(orgId);
    else this.buckets.set(orgId, { tokens, at: bucket.at });
  }
}
