import {
  type Clock,
  LOG_BATCH_LEDGER_DAYS,
  type NodeLogBatchLedger,
  type NodeLogHoldStore,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { NodeLink } from '../links/node-link.js';

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
}

/**
 * Keeps the offline hold (spec 2.3 node_queue_hours): each run deletes the rows whose hours passed, then offers
 * held rows to the links this server holds (rows held after a node's hello, or released by a link that
 * closed, reach a node that stays linked). Correct with several API servers: expiry deletes with
 * `SKIP LOCKED` and is idempotent, and rows are claimed per link before they are sent.
 */
export class NodeLogHoldScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<NodeLogHoldRun> | undefined;

  constructor(
    private readonly deps: {
      store: NodeLogHoldStore;
      /** The ledger of stored node log batches, pruned here too (absent without a columnar store). */
      ledger?: Pick<NodeLogBatchLedger, 'forgetStored'> | undefined;
      clock: Clock;
      logger: Pick<Logger, 'error'>;
      /** The ready links this server holds, by profile id. */
      linksByProfile: () => Map<string, NodeLink[]>;
      offer: (link: NodeLink) => void;
    },
    private readonly everyMs = 30_000,
  ) {}

  /** Runs now (joining a run in flight). */
  async runOnce(): Promise<NodeLogHoldRun> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.deps.logger.error({ err: error }, 'node log hold failed'),
      );
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for a run in flight. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<NodeLogHoldRun> {
    const now = this.deps.clock.now();
    let expired = 0;
    for (;;) {
      const deleted = await this.deps.store.expire(now, EXPIRY_CHUNK);
      expired += deleted;
      if (deleted < EXPIRY_CHUNK) break;
    }
    let forgotten = 0;
    const ledger = this.deps.ledger;
    if (ledger !== undefined) {
      const storedBefore = new Date(now.getTime() - LOG_BATCH_LEDGER_DAYS * 86_400_000);
      for (;;) {
        const deleted = await ledger.forgetStored(storedBefore, EXPIRY_CHUNK);
        forgotten += deleted;
        if (deleted < EXPIRY_CHUNK) break;
      }
    }
    const links = this.deps.linksByProfile();
    let offered = 0;
    for (const profileId of await this.deps.store.profilesHolding([...links.keys()], now)) {
      for (const link of links.get(profileId) ?? []) {
        this.deps.offer(link);
        offered += 1;
      }
    }
    return { expired, offered, forgotten };
  }
}
