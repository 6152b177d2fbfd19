import type { WebhookDispatcher } from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/**
 * Delivers due webhook messages every second, beside the API and never in a request: each server leases the
 * endpoints it serves, so several servers share the work and keep each endpoint's order (issue 40). It also
 * purges delivered and failed deliveries older than 30 days (at most hourly, the dispatcher decides).
 */
export class WebhookDeliveryScheduler extends IntervalJob<number> {
  constructor(
    dispatcher: Pick<WebhookDispatcher, 'deliverDue' | 'purgeSettled'>,
    logger: Pick<Logger, 'error'>,
    everyMs = 1_000,
  ) {
    super({
      name: 'webhook delivery job',
      work: async () => {
        const delivered = await dispatcher.deliverDue();
        await dispatcher.purgeSettled();
        return delivered;
      },
      failure: 'webhook delivery failed; due deliveries are tried at the next run',
      logger,
      everyMs,
    });
  }
}
