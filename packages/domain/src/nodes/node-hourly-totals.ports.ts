import type { QueryStatus } from '../query-log/query-log-row.js';

/** One count of a report: an hour, a status and the running total. */
export interface ReportedCount {
  hour: Date;
  status: QueryStatus;
  count: number;
}

/** How much one hour and status grew since the last report of the run. */
export interface CountGrowth {
  hour: Date;
  status: QueryStatus;
  growth: number;
}

/**
 * The counts each node reported, per run, hour and status: how a report sent again adds nothing. `settle`
 * works out what grew, hands it to `write` (the columnar store's hourly totals) and records the new counts
 * only when `write` succeeded, all in one transaction, so a failed write is sent again and counted once.
 */
export const NodeTotalsLedger = Symbol.for('svc.NodeTotalsLedger');
export interface NodeTotalsLedger {
  settle(
    nodeId: string,
    run: string,
    counts: readonly ReportedCount[],
    write: (growth: CountGrowth[]) => Promise<void>,
  ): Promise<void>;
  /** Forgets reports of hours before `before`; answers how many counts it forgot. */
  forgetBefore(before: Date, limit: number): Promise<number>;
}
