/** Attempts before a message is given up: with the backoff below, about ten hours of an unreachable SMTP. */
export const MAIL_MAX_ATTEMPTS = 20;
/**
 * A send that has not settled by then counts as failed (and is retried later), so a stalled SMTP server can
 * neither hold a batch nor stretch a shutdown past its 10 s grace (RUNNER.md).
 */
export const MAIL_SEND_TIMEOUT_MS = 8_000;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;

/** How long to wait after the `attempts`-th failed attempt: 5 s, doubling, at most an hour. */
export function mailRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** The text stored and logged for a failed send; never shown to clients. */
export function mailFailureText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}
