import { type ApiError, RETRYABLE_STATUSES } from './errors.js';

// When a call is repeated and how long it waits first: exponential back-off with jitter, Retry-After honoured.

const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Whether a call may be sent again: a method safe to repeat, or a POST carrying an Idempotency-Key. */
export function isRepeatable(method: string, idempotencyKey: string | undefined): boolean {
  return SAFE_TO_REPEAT.has(method) || idempotencyKey !== undefined;
}

/** Retry-After as seconds from now (it is either a number of seconds or an HTTP date). */
export function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Waits `ms`, or less when `signal` aborts (the caller then sees the abort on its next check). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Exponential back-off with jitter: 250 ms, 500 ms, 1 s… capped at `maxDelayMs`, each drawn from its upper half. */
export function backoffMs(attempt: number, maxDelayMs: number): number {
  const base = Math.min(maxDelayMs, 250 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

/**
 * How long to wait before retrying an error answer, or undefined when its status is not retryable.
 * Retry-After is a minimum, so the jitter (up to a tenth, at most one second) goes on top, spreading the
 * clients it held back; `maxDelayMs` (the client's `maxRetryDelaySeconds`) caps the whole wait.
 */
export function retryDelayMs(attempt: number, error: ApiError, maxDelayMs: number): number | undefined {
  // A repeat of an idempotent POST whose first try is still running (or ran on a server that died) is told
  // to come back: the same key then gets the first answer, or runs anew once the first try's lease lapses.
  const inProgress = error.status === 409 && error.code === 'idempotency_in_progress';
  if (!RETRYABLE_STATUSES.has(error.status) && !inProgress) return undefined;
  if (error.retryAfter === undefined) return backoffMs(attempt, maxDelayMs);
  const wait = error.retryAfter * 1000;
  return Math.min(maxDelayMs, wait + Math.random() * Math.min(1000, wait / 10));
}
