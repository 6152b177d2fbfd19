import { z } from 'zod';
import type { EdgeLogWriter } from '../query-log/edge-log-writer.ports.js';
import { QUERY_STATUSES } from '../query-log/query-log-row.js';
import type { Clock } from '../shared/clock.ports.js';
import type { NodeTotalsLedger, ReportedCount } from './node-hourly-totals.ports.js';
import type { BatchSender } from './node-log-batch.ports.js';

const HOUR_MS = 3_600_000;
/** How far back a node may report an hour (its reports of a run are remembered as long). */
export const NODE_TOTALS_DAYS = 7;
/** Largest count of one hour and status a report may carry. */
const MAX_COUNT = 2 ** 40;

const Count = z.int().min(0).max(MAX_COUNT);

/** One hour of a node's counts in `hourly_totals` (docs/node-link-protocol.md). */
const NodeHourTotals = z.object({
  hour: z.iso.datetime({ offset: true }),
  allowed: Count,
  blocked: Count,
  rewritten: Count,
  error: Count,
});

/** Node → server: the node's counts per hour of its current run, each a running total that only grows. */
export const NodeHourlyTotals = z.object({
  type: z.literal('hourly_totals'),
  id: z.string().min(1).max(64),
  run: z.string().min(1).max(64),
  totals: z.array(NodeHourTotals).max(48),
});
export type NodeHourlyTotals = z.infer<typeof NodeHourlyTotals>;

/** Server → node: what became of an `hourly_totals` message. */
export const LinkHourlyTotalsAck = z.object({
  type: z.literal('hourly_totals_ack'),
  id: z.string(),
  outcome: z.enum(['stored', 'not_kept', 'rejected']),
  reason: z.string().optional(),
});
export type LinkHourlyTotalsAck = z.infer<typeof LinkHourlyTotalsAck>;

/** What the service is built from. */
export interface NodeHourlyTotalsDependencies {
  /** The ledger and the columnar store's writer; without them (no columnar store) nothing is kept. */
  storage: { ledger: NodeTotalsLedger; writer: Pick<EdgeLogWriter, 'writeHourlyTotals'> } | undefined;
  clock: Clock;
}

/**
 * Hourly totals of self-hosted nodes (spec 4.6 rule 1: the cloud keeps hourly totals of every profile's
 * queries counted at the edge, whatever the log destination): each report adds to the columnar store's hourly
 * totals only what grew since the node's last report of the same run, so reports are idempotent.
 */
export class NodeHourlyTotalsService {
  constructor(private readonly deps: NodeHourlyTotalsDependencies) {}

  async receive(
    sender: BatchSender,
    message: NodeHourlyTotals,
  ): Promise<Omit<LinkHourlyTotalsAck, 'type' | 'id'>> {
    const now = this.deps.clock.now().getTime();
    const counts: ReportedCount[] = [];
    for (const totals of message.totals) {
      const hour = Date.parse(totals.hour);
      if (hour % HOUR_MS !== 0 || hour > now + HOUR_MS || hour < now - NODE_TOTALS_DAYS * 24 * HOUR_MS)
        return { outcome: 'rejected', reason: 'validation_failed' };
      for (const status of QUERY_STATUSES) {
        if (totals[status] > 0) counts.push({ hour: new Date(hour), status, count: totals[status] });
      }
    }
    const storage = this.deps.storage;
    if (storage === undefined) return { outcome: 'not_kept' };
    await storage.ledger.settle(sender.nodeId, message.run, counts, async (growth) => {
      if (growth.length === 0) return;
      await storage.writer.writeHourlyTotals(
        growth.map((grown) => ({
          profileId: sender.profileId,
          hour: grown.hour,
          status: grown.status,
          count: grown.growth,
        })),
      );
    });
    return { outcome: 'stored' };
  }
}
