import type { Logger } from 'pino';
import type { ServerJob } from './server-job.js';

/** How an interval job runs. */
export interface IntervalJobOptions<Result> {
  /** What the server's Lifecycle calls it (in shutdown failures). */
  name: string;
  /** One run of the work; runs never overlap on one server. */
  work: () => Promise<Result>;
  /** Logged (with the error) when a run the interval started fails. */
  failure: string;
  logger: Pick<Logger, 'error'>;
  everyMs: number;
}

/**
 * Background work repeated on an interval by each API server: a {@link ServerJob}, started by the server once it
 * serves and stopped by its Lifecycle.
 * The work itself makes several servers safe together (row locks, leases, SKIP LOCKED); this only keeps one
 * run at a time per server, lets tests run it on demand, and waits for a run in flight when stopping.
 */
export class IntervalJob<Result> implements ServerJob {
  readonly name: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Result> | undefined;

  constructor(private readonly options: IntervalJobOptions<Result>) {
    this.name = options.name;
  }

  /** Runs now, or joins the run in flight (tests call it after moving the clock). */
  async runOnce(): Promise<Result> {
    this.running ??= this.options.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.options.logger.error({ err: error }, this.options.failure),
      );
    }, this.options.everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for a run in flight. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
