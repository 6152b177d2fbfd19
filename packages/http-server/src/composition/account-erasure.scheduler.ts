import type { AccountDeletionService } from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/**
 * Erases accounts whose deletion cooling-off ended; `runOnce` answers how many. Several servers may run it:
 * each due account is claimed atomically by one of them.
 */
export class AccountErasureScheduler extends IntervalJob<number> {
  constructor(deletion: AccountDeletionService, logger: Pick<Logger, 'error'>, everyMs = 60_000) {
    super({
      work: () => deletion.eraseDue(),
      name: 'account erasure scheduler',
      failure: 'account erasure failed',
      logger,
      everyMs,
    });
  }
}
