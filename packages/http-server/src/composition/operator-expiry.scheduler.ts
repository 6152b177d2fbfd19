import { type Clock, republishExpiredOperatorFiles, type UnitOfWork } from '@svc/domain';
import type { Logger } from 'pino';

/**
 * Republishes the operator files when an entry's expiry passes, so expired entries leave them at their expiry
 * (to the interval). Several servers may run it: each file's row lock serialises them, and an entry marked
 * expired by one run is not found by the next, so each expiry republishes once.
 */
export class OperatorExpiryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly logger: Pick<Logger, 'error'>,
    private readonly everyMs = 15_000,
  ) {}

  /** Republishes the files holding expired entries now; returns how many files it republished. */
  async runOnce(): Promise<number> {
    this.running ??= republishExpiredOperatorFiles(this.uow, this.clock.now()).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.logger.error({ err: error }, 'operator expiry republish failed'),
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
}
