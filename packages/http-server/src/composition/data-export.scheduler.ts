import type { DataExportService } from '@svc/domain';
import type { Logger } from 'pino';

/** What one run of the export job did. */
export interface DataExportRun {
  built: number;
  expired: number;
}

/**
 * Builds pending data exports and expires old ones, on an interval owned by the composition root's Lifecycle.
 * Several servers may run it: each export is claimed (and leased) by one of them.
 */
export class DataExportScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<DataExportRun> | undefined;

  constructor(
    private readonly exports: DataExportService,
    private readonly logger: Pick<Logger, 'error'>,
    private readonly everyMs = 5_000,
  ) {}

  /**
   * Builds every export waiting now, then expires those past retention (what the interval runs; tests call
   * it after stopping the interval). A build that throws is logged and left to a later run.
   */
  async runOnce(): Promise<DataExportRun> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) => this.logger.error({ err: error }, 'data export job failed'));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for a run in flight. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<DataExportRun> {
    let built = 0;
    try {
      while (await this.exports.buildNext()) built += 1;
    } catch (error) {
      this.logger.error({ err: error }, 'building a data export failed; it is retried after its lease');
    }
    return { built, expired: await this.exports.expireDue() };
  }
}
