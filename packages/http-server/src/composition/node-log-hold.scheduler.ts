import {
  type Clock,
  LOG_BATCH_LEDGER_DAYS,
  NODE_TOTALS_DAYS,
  type NodeLogBatchLedger,
  type NodeLogHoldStore,
  type NodeTotalsLedger,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { NodeLink } from '../links/node-link.js';
import { IntervalJob } from './interval-job.js';

/** Expired rows deleted per statement. */
const EXPIRY_CHUNK = 10_000;

/** What one run did. */
export interface NodeLogHoldRun {
  /** Held rows deleted because node_queue_hours passed. */
  expired: number;
  /** Links of this server offered held rows. */
  offered: number;
  /** Stored log batches the ledger forgot because LOG_BATCH_LEDGER_DAYS passed. */
  forgotten: number;
  /** Node hourly totals reports forgotten because NODE_TOTALS_DAYS (and a day) passed. */
  totalsForgotten: number;
}

/** What the hold scheduler is built from. */
export interface NodeLogHoldDependencies {
  store: NodeLogHoldStore;
  /** The ledger of stored node log batches, pruned here too (absent without a columnar store). */
  ledger?: Pick<NodeLogBatchLedger, 'forgetStored'> | undefined;
  /** The ledger of node hourly totals, pruned here too (absent without a columnar store). */
  totals?: Pick<NodeTotalsLedger, 'forgetBefore'> | undefined;
  clock: Clock;
  logger: Pick<Logger, 'error'>;
  /** The ready links this server holds, by profile id. */
  linksByProfile: () => Map<string, NodeLink[]>;
  offer: (link: NodeLink) => void;
}

/**
 * Keeps the offline hold (spec 2.3 node_queue_hours): each run deletes the rows whose hours passed, then offers
 * held rows to the links this server holds (rows held after a node's hello, or released by a link that
 * closed, reach a node that stays linked). Correct with several API servers: expiry deletes with
 * `SKIP LOCKED` and is idempotent, and rows are claimed per link before they are sent.
 */
export class NodeLogHoldScheduler extends IntervalJob<NodeLogHoldRun> {
  constructor(deps: NodeLogHoldDependencies, everyMs = 30_000) {
    super({
      name: 'node log hold scheduler',
      work: () => holdRun(deps),
      failure: 'node log hold failed',
      logger: deps.logger,
      everyMs,
    });
  }
}

/** Calls `remove` with `EXPIRY_CHUNK` until it removes fewer; answers how many it removed. */
async function removeInChunks(remove: (limit: number) => Promise<number>): Promise<number> {
  let removed = 0;
  for (;;) {
    const deleted = await remove(EXPIRY_CHUNK);
    removed += deleted;
    if (deleted < EXPIRY_CHUNK) return removed;
  }
}

async function holdRun(deps: NodeLogHoldDependencies): Promise<NodeLogHoldRun> {
  const now = deps.clock.now();
  const expired = await removeInChunks((limit) => deps.store.expire(now, limit));
  const ledger = deps.ledger;
  const storedBefore = new Date(now.getTime() - LOG_BATCH_LEDGER_DAYS * 86_400_000);
  const forgotten =
    ledger === undefined ? 0 : await removeInChunks((limit) => ledger.forgetStored(storedBefore, limit));
  const totals = deps.totals;
  // A day beyond what nodes may report: a report of the oldest hour still finds what it added.
  const hoursBefore = new Date(now.getTime() - (NODE_TOTALS_DAYS + 1) * 86_400_000);
  const totalsForgotten =
    totals === undefined ? 0 : await removeInChunks((limit) => totals.forgetBefore(hoursBefore, limit));
  const links = deps.linksByProfile();
  let offered = 0;
  for (const profileId of await deps.store.profilesHolding([...links.keys()], now)) {
    for (const link of links.get(profileId) ?? []) {
      deps.offer(link);
      offered += 1;
    }
  }
  return { expired, offered, forgotten, totalsForgotten };
}
