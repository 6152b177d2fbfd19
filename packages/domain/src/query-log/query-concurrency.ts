import { DomainError } from '../shared/domain-error.js';
import type { Timers } from '../shared/timers.ports.js';

/** Concurrent queries per organisation and how long a query waits for a slot (spec 8). */
export interface ConcurrencyLimits {
  slots: number;
  waitMs: number;
}

const FREE_PLAN_CONCURRENCY: Readonly<ConcurrencyLimits> = Object.freeze({ slots: 4, waitMs: 5_000 });

/** Seconds a refused query is told to wait: a slot frees as soon as a running query ends. */
const RETRY_AFTER_S = 1;

interface Waiter {
  grant(): void;
}

interface Slots {
  running: number;
  waiting: Waiter[];
}

/**
 * At most `slots` queries of one organisation run at once on this API server; the next ones wait, first come
 * first served, up to `waitMs` for a slot, then fail with 429 too_many_queries.
 */
export class QueryConcurrencyGate {
  private readonly orgs = new Map<string, Slots>();

  constructor(
    private readonly timers: Timers,
    private readonly limits: ConcurrencyLimits = FREE_PLAN_CONCURRENCY,
  ) {}

  /** Runs `work` in one of `orgId`'s slots. */
  async run<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(orgId);
    try {
      return await work();
    } finally {
      this.release(orgId);
    }
  }

  private acquire(orgId: string): Promise<void> {
    const slots = this.orgs.get(orgId) ?? { running: 0, waiting: [] };
    this.orgs.set(orgId, slots);
    if (slots.running < this.limits.slots) {
      slots.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          cancel();
          resolve();
        },
      };
      const cancel = this.timers.after(this.limits.waitMs, () => {
        slots.waiting = slots.waiting.filter((other) => other !== waiter);
        reject(
          new DomainError('too_many_queries', 'Too many queries of this organisation are running.', {
            retryAfter: RETRY_AFTER_S,
          }),
        );
      });
      slots.waiting.push(waiter);
    });
  }

  private release(orgId: string): void {
    const slots = this.orgs.get(orgId);
    if (slots === undefined) return;
    const next = slots.waiting.shift();
    // The slot passes straight to the next waiter, so the running count stays.
    if (next !== undefined) {
      next.grant();
      return;
    }
    slots.running -= 1;
    if (slots.running === 0) this.orgs.delete(orgId);
  }
}
