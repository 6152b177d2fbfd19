import type { AccountDeletionService } from '@svc/domain';
import type { Logger } from 'pino';

/**
 * Erases accounts whose deletion cooling-off ended, on an interval owned by the composition root's Lifecycle.
 * Several servers may run it: each due account is claimed atomically by one of them.
 */
export class AccountErasureScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deletion: AccountDeletionService,
    private readonly logger: Pick<Logger, 'error'>,
    private readonly everyMs = 60_000,
  ) {}

  /** Erases every due account now (what the interval runs; tests call it after moving the clock). */
  async runOnce(): Promise<number> {
    this.running ??= this.deletion.eraseDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) => this.logger.error({ err: error }, 'account erasure failed'));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for an erasure in flight. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
