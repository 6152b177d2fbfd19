import { noLogFilters, type QueryLogRow, type RowQuery } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { NewestRowsCache, queryLogColumnsOf } from '../src/index.js';
import { logRow, tailQuery } from './support/query-log-rows.js';

const P = 'aaaaaa';
const T0 = Date.UTC(2026, 10, 20, 12);

const row = (ts: number, rowId: number | string, profileId = P) => logRow(profileId, ts, rowId);

/** A tail of P (or `profileId`) far after the rows, changed as `options` say. */
function tail(
  options: Partial<Pick<RowQuery, 'position' | 'profileId' | 'shape' | 'filters'>> & {
    to?: number;
    from?: number;
  } = {},
): RowQuery {
  const query = tailQuery(options.profileId ?? P, {
    to: options.to ?? T0 + 1e9,
    ...(options.from === undefined ? {} : { from: options.from }),
    position: options.position ?? null,
  });
  return { ...query, shape: options.shape ?? 'tail', filters: options.filters ?? query.filters };
}

/** What the store answers for a newest-first read of `rows`: the newest `limit`, newest first. */
const storeRead = (rows: QueryLogRow[]) => async (limit: number) =>
  [...rows]
    .sort((a, b) => b.ts.getTime() - a.ts.getTime() || Number(b.rowId) - Number(a.rowId))
    .slice(0, limit);

const ids = (rows: QueryLogRow[] | undefined) => rows?.map((r) => r.rowId);

function cacheOf(limits: { profiles?: number; rowsPerProfile?: number; lifetimeMs?: number } = {}) {
  const clock = { now: T0 };
  const cache = new NewestRowsCache(
    {
      profiles: limits.profiles ?? 8,
      rowsPerProfile: limits.rowsPerProfile ?? 5,
      lifetimeMs: limits.lifetimeMs ?? 60_000,
    },
    () => clock.now,
  );
  return { cache, clock };
}

describe('NewestRowsCache: the newest rows of a profile as the store holds them', () => {
  it('serves tails without filters of at most an entry, and nothing else', () => {
    const { cache } = cacheOf();
    expect(cache.serves(tail(), 5)).toBe(true);
    expect(cache.serves(tail(), 6)).toBe(false);
    expect(cache.serves(tail({ shape: 'search' }), 5)).toBe(false);
    expect(
      cache.serves(
        tail({
          filters: { ...noLogFilters(), statuses: ['blocked'] },
        }),
        5,
      ),
    ).toBe(false);
  });

  it('answers nothing before a fill, then the newest rows below `to`, and knows when it cannot tell', async () => {
    const { cache } = cacheOf();
    expect(cache.answer(tail(), 3)).toBeUndefined();
    const stored = [1, 2, 3, 4, 5, 6, 7].map((n) => row(T0 + n * 1000, n));
    await cache.fill(P, storeRead(stored));
    expect(ids(cache.answer(tail(), 3))).toEqual(['7', '6', '5']);
    expect(ids(cache.answer(tail({ to: T0 + 6000 }), 2))).toEqual(['5', '4']);
    // The entry holds 7..3; rows 2 and 1 are only in the store.
    expect(cache.answer(tail({ to: T0 + 5000 }), 3)).toBeUndefined();
    // Unless `from` excludes them anyway.
    expect(ids(cache.answer(tail({ to: T0 + 5000, from: T0 + 3500 }), 3))).toEqual(['4']);
  });

  it('answers every limit of a profile with fewer rows than an entry, and none for a profile without rows', async () => {
    const { cache } = cacheOf();
    await cache.fill(P, storeRead([row(T0, 1), row(T0 + 1, 2)]));
    expect(ids(cache.answer(tail(), 5))).toEqual(['2', '1']);
    await cache.fill('bbbbbb', storeRead([]));
    expect(cache.answer(tail({ profileId: 'bbbbbb' }), 5)).toEqual([]);
  });

  it('answers a tail after a position with the oldest rows after it, newest first, when the entry reaches it', async () => {
    const { cache } = cacheOf();
    await cache.fill(P, storeRead([1, 2, 3, 4, 5, 6, 7].map((n) => row(T0 + n * 1000, n))));
    const at = (n: number) => ({ ts: T0 + n * 1000, rowId: String(n) });
    expect(ids(cache.answer(tail({ position: at(3) }), 2))).toEqual(['5', '4']);
    expect(ids(cache.answer(tail({ position: at(5) }), 5))).toEqual(['7', '6']);
    expect(cache.answer(tail({ position: at(7) }), 5)).toEqual([]);
    // Row 2 is older than the entry: rows between it and the entry may be missing.
    expect(cache.answer(tail({ position: at(2) }), 5)).toBeUndefined();
    // Ties on time are broken by the row id as an unsigned number, not as text.
    await cache.fill('cccccc', storeRead([row(T0, 9, 'cccccc'), row(T0, 10, 'cccccc')]));
    expect(ids(cache.answer(tail({ profileId: 'cccccc', position: { ts: T0, rowId: '9' } }), 5))).toEqual([
      '10',
    ]);
  });

  it('merges rows recorded after the fill: newer ones enter, one already there stays once, the entry keeps its size', async () => {
    const { cache } = cacheOf();
    await cache.fill(P, storeRead([3, 4, 5, 6, 7].map((n) => row(T0 + n * 1000, n)).concat(row(T0, 1))));
    cache.recorded(
      queryLogColumnsOf([
        row(T0 + 8000, 8),
        row(T0 + 7000, 7),
        row(T0 + 6500, 65),
        row(T0 + 500, 99),
        row(T0 + 9000, 1, 'dddddd'),
      ]),
    );
    expect(ids(cache.answer(tail(), 5))).toEqual(['8', '7', '65', '6', '5']);
    // Row 99 is older than the entry, which holds rows 8..5 only now: a deeper tail goes to the store.
    expect(cache.answer(tail({ to: T0 + 5000 }), 1)).toBeUndefined();
    // A profile without an entry is left alone.
    expect(cache.answer(tail({ profileId: 'dddddd' }), 1)).toBeUndefined();
  });

  it('keeps a whole entry whole while it has room, and places a late row among its rows', async () => {
    const { cache } = cacheOf();
    await cache.fill(P, storeRead([row(T0 + 5000, 5), row(T0 + 9000, 9)]));
    cache.recorded(queryLogColumnsOf([row(T0 + 1000, 1), row(T0 + 7000, 7)]));
    expect(ids(cache.answer(tail(), 5))).toEqual(['9', '7', '5', '1']);
  });

  it('merges rows recorded while a fill reads, and drops a fill whose profile was forgotten meanwhile', async () => {
    const { cache } = cacheOf();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const filling = cache.fill(P, async (limit) => {
      await gate;
      return storeRead([row(T0 + 1000, 1)])(limit);
    });
    // A second fill of the same profile waits for the first instead of reading.
    let secondRead = false;
    const waiting = cache.fill(P, async () => {
      secondRead = true;
      return [];
    });
    cache.recorded(queryLogColumnsOf([row(T0 + 2000, 2)]));
    release();
    await Promise.all([filling, waiting]);
    expect(secondRead).toBe(false);
    expect(ids(cache.answer(tail(), 5))).toEqual(['2', '1']);

    let releaseErased: () => void = () => undefined;
    const erasedGate = new Promise<void>((resolve) => {
      releaseErased = resolve;
    });
    const erased = cache.fill('eeeeee', async () => {
      await erasedGate;
      return [row(T0, 1, 'eeeeee')];
    });
    cache.forget(['eeeeee']);
    releaseErased();
    await erased;
    expect(cache.answer(tail({ profileId: 'eeeeee' }), 1)).toBeUndefined();
    cache.forget([P]);
    expect(cache.answer(tail(), 1)).toBeUndefined();
  });

  it('stops answering from an entry at the end of its lifetime, and keeps the most recently used profiles', async () => {
    const { cache, clock } = cacheOf({ profiles: 2, lifetimeMs: 1000 });
    await cache.fill(P, storeRead([row(T0, 1)]));
    clock.now += 999;
    expect(ids(cache.answer(tail(), 1))).toEqual(['1']);
    clock.now += 1;
    expect(cache.answer(tail(), 1)).toBeUndefined();

    await cache.fill('p1p1p1', storeRead([row(T0, 1, 'p1p1p1')]));
    await cache.fill('p2p2p2', storeRead([row(T0, 2, 'p2p2p2')]));
    // Used, so p2p2p2 is the least recently used when a third profile comes.
    expect(cache.answer(tail({ profileId: 'p1p1p1' }), 1)).toBeDefined();
    await cache.fill('p3p3p3', storeRead([row(T0, 3, 'p3p3p3')]));
    expect(cache.answer(tail({ profileId: 'p2p2p2' }), 1)).toBeUndefined();
    expect(cache.answer(tail({ profileId: 'p1p1p1' }), 1)).toBeDefined();
    expect(cache.answer(tail({ profileId: 'p3p3p3' }), 1)).toBeDefined();
  });
});
