import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors.js';
import { backoffMs, isRepeatable, retryAfterSeconds, retryDelayMs } from '../src/retry-policy.js';

const answer = (status: number, code: string, retryAfter?: number) =>
  new ApiError(status, { status, code }, retryAfter === undefined ? {} : { retryAfter });

describe('retry policy', () => {
  it('repeats only calls safe to repeat: GET, HEAD, PUT, DELETE, and POSTs carrying an Idempotency-Key', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) expect(isRepeatable(method, undefined)).toBe(true);
    expect(isRepeatable('POST', undefined)).toBe(false);
    expect(isRepeatable('PATCH', undefined)).toBe(false);
    expect(isRepeatable('POST', 'key-1')).toBe(true);
  });

  it('reads Retry-After as seconds or as an HTTP date, never negative, and ignores what is neither', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds('-3')).toBe(0);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterSeconds(inTenSeconds)).toBeGreaterThan(8);
    expect(retryAfterSeconds(inTenSeconds)).toBeLessThanOrEqual(10);
    expect(retryAfterSeconds(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });

  it('backs off exponentially from 250 ms, each wait in the upper half of its step, capped', () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const step = 250 * 2 ** attempt;
      const wait = backoffMs(attempt, 30_000);
      expect(wait).toBeGreaterThanOrEqual(step / 2);
      expect(wait).toBeLessThanOrEqual(step);
    }
    expect(backoffMs(20, 2_000)).toBeLessThanOrEqual(2_000);
  });

  it('retries 429, 502, 503, 504 and 409 idempotency_in_progress, and nothing else', () => {
    for (const status of [429, 502, 503, 504])
      expect(retryDelayMs(0, answer(status, 'x'), 30_000)).toBeDefined();
    expect(retryDelayMs(0, answer(409, 'idempotency_in_progress'), 30_000)).toBeDefined();
    expect(retryDelayMs(0, answer(409, 'version_mismatch'), 30_000)).toBeUndefined();
    for (const status of [400, 401, 404, 422, 500])
      expect(retryDelayMs(0, answer(status, 'x'), 30_000)).toBeUndefined();
  });

  it('waits at least Retry-After, with at most a tenth (and at most a second) of jitter on top, within the cap', () => {
    const wait = retryDelayMs(0, answer(503, 'unavailable', 5), 30_000);
    expect(wait).toBeGreaterThanOrEqual(5_000);
    expect(wait).toBeLessThanOrEqual(5_500);
    const long = retryDelayMs(0, answer(429, 'rate_limited', 100), 30_000);
    expect(long).toBe(30_000);
  });
});
