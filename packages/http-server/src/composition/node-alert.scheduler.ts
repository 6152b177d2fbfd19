import {
  type Clock,
  type NodeAlertRun,
  type NodeStore,
  type Random,
  runNodeAlerts,
  type UnitOfWork,
} from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/**
 * Sends node offline and back alerts (spec 3, 8). Each run first records the links this server holds as heard
 * now, so a node linked here never reads offline, then claims due alerts under row locks other servers skip:
 * several servers may run it together and each alert is sent once.
 */
export class NodeAlertScheduler extends IntervalJob<NodeAlertRun> {
  constructor(
    deps: {
      uow: UnitOfWork;
      store: NodeStore;
      clock: Clock;
      /** Ids of the node.offline and node.online webhook messages. */
      random: Random;
      logger: Pick<Logger, 'error'>;
      /** The nodes holding a link to this server. */
      connectedNodeIds: () => string[];
      delaySeconds: number;
    },
    everyMs = 30_000,
  ) {
    super({
      work: async () => {
        const now = deps.clock.now();
        await deps.store.linkSeen(deps.connectedNodeIds(), now);
        return runNodeAlerts(deps.uow, now, deps.delaySeconds, deps.random);
      },
      name: 'node alert scheduler',
      failure: 'node alerts failed',
      logger: deps.logger,
      everyMs,
    });
  }
}
