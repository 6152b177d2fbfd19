import { type Clock, type NodeAlertRun, type NodeStore, runNodeAlerts, type UnitOfWork } from '@svc/domain';
import type { Logger } from 'pino';

/**
 * Sends node offline and back alerts (spec 3, 8). Each run first records the links this server holds as heard
 * now, so a node linked here never reads offline, then claims due alerts under row locks other servers skip:
 * several servers may run it together and each alert is sent once.
 */
export class NodeAlertScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<NodeAlertRun> | undefined;

  constructor(
    private readonly deps: {
      uow: UnitOfWork;
      store: NodeStore;
      clock: Clock;
      logger: Pick<Logger, 'error'>;
      /** The nodes holding a link to this server. */
      connectedNodeIds: () => string[];
      delaySeconds: number;
    },
    private readonly everyMs = 30_000,
  ) {}

  /** Sends every alert due now; returns what it sent. */
  async runOnce(): Promise<NodeAlertRun> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) => this.deps.logger.error({ err: error }, 'node alerts failed'));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for a run in flight. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<NodeAlertRun> {
    const now = this.deps.clock.now();
    await this.deps.store.linkSeen(this.deps.connectedNodeIds(), now);
    return runNodeAlerts(this.deps.uow, now, this.deps.delaySeconds);
  }
}
