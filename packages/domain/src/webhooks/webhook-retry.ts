/** An endpoint failing this long without a success is disabled and its owners emailed (issue 40). */
export const WEBHOOK_FAILING_LIMIT_MS = 3 * 24 * 60 * 60 * 1000;
/**
 * Delivered and failed deliveries are kept this long after they were queued, then purged by the delivery job:
 * long enough to look back and redeliver what a receiver missed, short enough that bodies do not pile up.
 */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** The delivery job purges at most this often: the purge scans every settled delivery, the job runs each second. */
export const WEBHOOK_PURGE_EVERY_MS = 60 * 60 * 1000;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000;

/** How long to wait after the `attempts`-th failed attempt: 10 s, doubling, at most 6 hours. */
export function webhookRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}
