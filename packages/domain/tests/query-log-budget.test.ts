import { describe, expect, it } from 'vitest';
import { type Clock, QueryBudget, QueryConcurrencyGate, queryCost, type Timers } from '../src/index.js';

const DAY = 86_400_000;

class StepClock implements Clock {
  at = Date.parse('2026-11-23T00:00:00Z');
  now(): Date {
    return new Date(this.at);
  }
}

describe(queryCost.name, () => {
  it('is 1 per tail, 2 per day begun of rows, 1 per week begun of totals (spec 8)', () => {
    expect(queryCost('tail', 900 * DAY)).toBe(1);
    expect(queryCost('rows', 31 * DAY)).toBe(62);
    expect(queryCost('rows', 400 * DAY)).toBe(800);
    expect(queryCost('rows', DAY + 1)).toBe(4);
    expect(queryCost('rows', 0)).toBe(2);
    expect(queryCost('totals', 400 * DAY)).toBe(58);
    expect(queryCost('totals', 3_600_000)).toBe(1);
  });
});

describe(QueryBudget.name, () => {
  it('takes back what it gave back for a query that was not answered, never beyond its capacity', () => {
    const clock = new StepClock();
    const sut = new QueryBudget(clock);
    sut.take('org-a', 1_000);
    sut.refund('org-a', 600);
    sut.take('org-a', 800);
    expect(() => sut.take('org-a', 1)).toThrow(expect.objectContaining({ code: 'too_many_queries' }));
    sut.refund('org-a', 5_000);
    sut.take('org-a', 1_200);
    expect(() => sut.take('org-a', 1)).toThrow(expect.objectContaining({ code: 'too_many_queries' }));
  });

  it('holds 1,200 units per organisation, refilled 1,200 a minute by the clock', () => {
    const clock = new StepClock();
    const sut = new QueryBudget(clock);
    sut.take('org-a', 800);
    expect(() => sut.take('org-a', 800)).toThrow(
      expect.objectContaining({ code: 'too_many_queries', retryAfter: 20 }),
    );
    sut.take('org-b', 1_200);
    clock.at += 19_000;
    expect(() => sut.take('org-a', 800)).toThrow(
      expect.objectContaining({ code: 'too_many_queries', retryAfter: 1 }),
    );
    clock.at += 1_000;
    sut.take('org-a', 800);
    clock.at += 10 * 60_000;
    sut.take('org-a', 1_200);
  });

  it('a query costing more than the bucket can ever hold is 422 query_too_expensive', () => {
    const sut = new QueryBudget(new StepClock(), { capacity: 100, refillPerMinute: 100 });
    expect(() => sut.take('org', 101)).toThrow(expect.objectContaining({ code: 'query_too_expensive' }));
    sut.take('org', 100);
  });
});

/** Timers the test fires by hand. */
class HandTimers implements Timers {
  pending: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  after(ms: number, callback: () => void): () => void {
    const entry = { ms, fire: callback, cancelled: false };
    this.pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }
}

describe(QueryConcurrencyGate.name, () => {
  it('runs 4 queries of an organisation at once; the next waits for a slot, first come first served', async () => {
    const timers = new HandTimers();
    const sut = new QueryConcurrencyGate(timers);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const runs = [0, 1, 2, 3, 4, 5].map((index) =>
      sut.run('org', () => {
        started.push(index);
        return new Promise<void>((resolve) => releases.push(resolve));
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5_000, 5_000]);
    // Another organisation has its own slots.
    await sut.run('other', async () => undefined);
    releases[0]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(timers.pending[0]?.cancelled).toBe(true);
    // Releasing the rest lets the last waiter in; then it is released too.
    for (const release of releases) release();
    await new Promise((resolve) => setImmediate(resolve));
    for (const release of releases) release();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a query waiting 5 s without a slot is 429 too_many_queries with Retry-After', async () => {
    const timers = new HandTimers();
    const sut = new QueryConcurrencyGate(timers);
    const hold = new Promise<void>(() => undefined);
    for (let index = 0; index < 4; index += 1) void sut.run('org', () => hold);
    const waiting = sut.run('org', async () => 'ran');
    await new Promise((resolve) => setImmediate(resolve));
    timers.pending[0]?.fire();
    await expect(waiting).rejects.toMatchObject({ code: 'too_many_queries', retryAfter: 1 });
  });
});
