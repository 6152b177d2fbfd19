import { setTimeout as delay } from 'node:timers/promises';

/** What one batch of a {@link DrainLoop} did. */
export interface DrainBatch {
  /** Items handled (published, sent) by this batch. */
  handled: number;
  /** Whether another batch may find more right away; false once the batch found the backlog empty. */
  more: boolean;
}

/** Bounds one item's work by the loop's item time-out (a rejection when it has not settled in time). */
export type ItemDeadline = <T>(work: Promise<T>) => Promise<T>;

/** Options of a {@link DrainLoop}. */
export interface DrainLoopOptions {
  /** One batch: claim what is due, handle it, record the outcome. */
  batch: (within: ItemDeadline) => Promise<DrainBatch>;
  /** Period of the background wake-up, which is also when a failed drain is tried again. Default 1 s. */
  intervalMs?: number;
  /**
   * How long one item (a publish, a send) may take before it counts as failed; without it items are awaited
   * for as long as they take. Bounded items keep a stalled peer from holding a batch, or a shutdown, forever.
   */
  itemTimeoutMs?: number;
  /** What the time-out error says before ` within N s`, e.g. `the mailer did not answer`. */
  timeoutMessage?: string;
  /**
   * When woken while a drain that found work runs, how long to wait before the next round, so that it takes
   * what several commits wrote at once. Default 0 (no wait).
   */
  gatherMs?: number;
  /**
   * What `stop()` waits for: the batch in flight (`batch`, for work durable in a database that another server
   * or the next start takes up) or the whole drain in flight (`drain`, the default: nothing is left behind that
   * a shutdown would lose, or hold until the next start).
   */
  stopAfter?: 'batch' | 'drain';
  /** A failed drain (the next wake-up tries again). */
  onError: (error: unknown) => void;
}

/**
 * The background loop shared by the outbox relay and the mail dispatchers: one drain at a time, woken by a
 * signal (a commit's nudge) or a timer; a drain runs batches until one finds nothing more, and once more when
 * woken meanwhile. A drain that fails is reported and tried again at the next wake-up, the timer's period
 * being the back-off. `stop()` ends the timer and waits for the batch or the drain in flight (`stopAfter`).
 */
export class DrainLoop {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<number> | undefined;
  private again = false;
  private stopping = false;
  private readonly within: ItemDeadline;

  constructor(private readonly options: DrainLoopOptions) {
    const limitMs = options.itemTimeoutMs;
    this.within =
      limitMs === undefined
        ? (work) => work
        : (work) => settleWithin(work, limitMs, options.timeoutMessage ?? 'the item did not settle');
  }

  /** Drains until a batch finds nothing more; joins the drain in flight (which then looks once more). */
  drain(): Promise<number> {
    if (this.inFlight !== undefined) {
      this.again = true;
      return this.inFlight;
    }
    // Cleared in a later microtask, after the assignment, even when the first batch found nothing.
    const run = this.rounds().finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }

  /** Asks for a drain soon; a failure goes to `onError`. */
  wake(): void {
    void this.drain().catch((error: unknown) => this.options.onError(error));
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.stopping = false;
    this.timer = setInterval(() => this.wake(), this.options.intervalMs ?? 1000);
    this.timer.unref();
    this.wake();
  }

  /** Stops the timer and waits for the drain in flight, or only its batch (`stopAfter: 'batch'`). */
  async stop(): Promise<void> {
    this.stopping = this.options.stopAfter === 'batch';
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight?.catch((error: unknown) => this.options.onError(error));
  }

  private async rounds(): Promise<number> {
    let total = 0;
    do {
      this.again = false;
      let batch: DrainBatch;
      do {
        batch = await this.options.batch(this.within);
        total += batch.handled;
      } while (batch.more && !this.stopping);
      const gatherMs = this.options.gatherMs ?? 0;
      if (this.again && batch.handled > 0 && gatherMs > 0 && !this.stopping) await delay(gatherMs);
    } while (this.again && !this.stopping);
    return total;
  }
}

/** Settles as `work` does, or rejects with `message` when it has not settled within `ms`. */
async function settleWithin<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
