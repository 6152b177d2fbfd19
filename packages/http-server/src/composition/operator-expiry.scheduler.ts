import { type Clock, republishExpiredOperatorFiles, type UnitOfWork } from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/**
 * Republishes the operator files when an entry's expiry passes, so expired entries leave them at their expiry
 * (to the interval); `runOnce` answers how many files it republished. Several servers may run it: each file's
 * row lock serialises them, and an entry marked expired by one run is not found by the next, so each expiry
 * republishes once.
 */
export class OperatorExpiryScheduler extends IntervalJob<number> {
  constructor(uow: UnitOfWork, clock: Clock, logger: Pick<Logger, 'error'>, everyMs = 15_000) {
    super({
      work: () => republishExpiredOperatorFiles(uow, clock.now()),
      name: 'operator expiry scheduler',
      failure: 'operator expiry republish failed',
      logger,
      everyMs,
    });
  }
}
