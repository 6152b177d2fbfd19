import type { LoginThrottle } from '@svc/domain';

/** First delay after a failure and its ceiling (spec 5.2.3 and section 8). */
const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;
/** Failures older than this no longer slow anyone down. */
const FORGET_AFTER_MS = 15 * 60_000;

interface FailureCount {
  failures: number;
  lastFailureAt: number;
}

/**
 * Per-server failure counters by key (address and account): each attempt waits 100 ms doubling to 5 s for the
 * failures its keys have, on its own timer, so a slowed address never holds back anyone else.
 */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly counts = new Map<string, FailureCount>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The delay the keys have earned, in milliseconds. */
  delayFor(keys: readonly string[]): number {
    let failures = 0;
    for (const key of keys) failures = Math.max(failures, this.live(key)?.failures ?? 0);
    return failures === 0 ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 1));
  }

  async delay(keys: readonly string[]): Promise<void> {
    const ms = this.delayFor(keys);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  recordFailure(keys: readonly string[]): void {
    const at = this.now();
    for (const key of keys) {
      const current = this.live(key);
      this.counts.set(key, { failures: Math.min((current?.failures ?? 0) + 1, 32), lastFailureAt: at });
    }
    if (this.counts.size > 100_000) this.sweep();
  }

  recordSuccess(keys: readonly string[]): void {
    for (const key of keys) this.counts.delete(key);
  }

  private live(key: string): FailureCount | undefined {
    const count = this.counts.get(key);
    if (count === undefined) return undefined;
    if (this.now() - count.lastFailureAt > FORGET_AFTER_MS) {
      this.counts.delete(key);
      return undefined;
    }
    return count;
  }

  private sweep(): void {
    for (const key of [...this.counts.keys()]) this.live(key);
  }
}
