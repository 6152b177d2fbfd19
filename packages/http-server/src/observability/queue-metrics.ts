import type { QueueDepths } from '@svc/adapters';
import type { ServerMetrics } from './server-metrics.js';

/** One read serves every gauge of a scrape; a later scrape reads again. */
const READ_REUSE_MS = 1_000;

/**
 * Outbox and mail queue gauges, read from the database when scraped (never per request). A failed read keeps
 * the last values and is logged by the caller: metrics still answer while the database is down, which is when
 * they matter.
 */
export function registerQueueMetrics(
  metrics: ServerMetrics,
  read: () => Promise<QueueDepths>,
  onError: (error: unknown) => void,
): void {
  let last: { at: number; depths: Promise<QueueDepths | undefined> } | undefined;
  const depths = (): Promise<QueueDepths | undefined> => {
    const now = Date.now();
    if (last === undefined || now - last.at > READ_REUSE_MS) {
      last = {
        at: now,
        depths: read().catch((error: unknown) => {
          onError(error);
          return undefined;
        }),
      };
    }
    return last.depths;
  };
  metrics.gauge({
    name: 'svc_outbox_pending_messages',
    help: 'Outbox messages committed and not yet published to the bus.',
    collect: async (gauge) => {
      const read = await depths();
      if (read !== undefined) gauge.set({}, read.outboxPending);
    },
  });
  metrics.gauge({
    name: 'svc_outbox_lag_seconds',
    help: 'Age of the oldest outbox message not yet published (0 when none waits).',
    collect: async (gauge) => {
      const read = await depths();
      if (read !== undefined) gauge.set({}, read.outboxLagSeconds);
    },
  });
  metrics.gauge({
    name: 'svc_mail_queue_messages',
    help: 'Queued mail by state: pending (not yet sent) or given_up (after the last attempt, kept a week).',
    labelNames: ['state'],
    collect: async (gauge) => {
      const read = await depths();
      if (read === undefined) return;
      gauge.set({ state: 'pending' }, read.mailPending);
      gauge.set({ state: 'given_up' }, read.mailGivenUp);
    },
  });
}
