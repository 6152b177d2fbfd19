import {
  comparePositions,
  filtersByTimeOnly,
  type LogPosition,
  type QueryLogRow,
  type RowQuery,
} from '@svc/domain';
import { type QueryLogColumns, queryLogRowAt } from './query-log-columns.js';

/** How many profiles and rows the cache keeps, and for how long an entry answers after its fill. */
export interface NewestRowsLimits {
  profiles: number;
  rowsPerProfile: number;
  lifetimeMs: number;
}

/**
 * 512 profiles of 100 rows (the default page of a tail): tens of MB at most. An entry is read again from
 * the store a minute after its fill, so that rows the store drops by itself (past their retention, on merge)
 * leave the answers within a minute, as they leave the store's own.
 */
const NEWEST_ROWS_LIMITS: Readonly<NewestRowsLimits> = Object.freeze({
  profiles: 512,
  rowsPerProfile: 100,
  lifetimeMs: 60_000,
});

/**
 * The newest rows of one profile, newest first: every row of the profile from the oldest of them on
 * (`complete`: and no older one).
 */
interface Entry {
  rows: QueryLogRow[];
  complete: boolean;
  filledAt: number;
}

/** A fill under way: rows recorded meanwhile, merged once it lands; erased: it must not land. */
interface Filling {
  done: Promise<void>;
  late: QueryLogRow[];
  erased: boolean;
}

/** A row's place in (ts, row_id) order. */
const positionOf = (row: QueryLogRow): LogPosition => ({ ts: row.ts.getTime(), rowId: row.rowId });

/** Negative when `a` is older than `b`. */
const compareRows = (a: QueryLogRow, b: QueryLogRow) => comparePositions(positionOf(a), positionOf(b));

const isAfter = (row: QueryLogRow, position: LogPosition) => comparePositions(positionOf(row), position) > 0;

/** Two newest-first lists as one, a row in both kept once. */
function mergeNewestFirst(a: readonly QueryLogRow[], b: readonly QueryLogRow[]): QueryLogRow[] {
  const merged: QueryLogRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (right === undefined || (left !== undefined && compareRows(left, right) > 0)) {
      merged.push(left as QueryLogRow);
      i += 1;
    } else if (left === undefined || compareRows(left, right) < 0) {
      merged.push(right);
      j += 1;
    } else {
      merged.push(left);
      i += 1;
      j += 1;
    }
  }
  return merged;
}

/**
 * The newest rows of the profiles whose logs were read lately, kept by the process that writes an embedded
 * store: embedded chdb has one writer, this process, so every row stored after an entry's fill passes through
 * {@link recorded} and every erasure through {@link forget}, and an entry stays exactly what the store holds.
 * A tail without filters (the first page of a live log, and each poll after it) is then answered from memory:
 * each read of the store costs embedded chdb a fixed CPU time, however few rows it returns, and the reads
 * of one process take turns inside the engine. A store shared by several processes (a ClickHouse server) has
 * writers this process never sees, so it gets no cache.
 */
export class NewestRowsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly fillings = new Map<string, Filling>();

  constructor(
    private readonly limits: NewestRowsLimits = NEWEST_ROWS_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the cache may answer the query: a tail without filters, of at most an entry's rows. */
  serves(query: RowQuery, limit: number): boolean {
    return query.shape === 'tail' && filtersByTimeOnly(query.filters) && limit <= this.limits.rowsPerProfile;
  }

  /** The rows the store would answer (see QueryLogReader.rows), or undefined when the entry cannot tell. */
  answer(query: RowQuery, limit: number): QueryLogRow[] | undefined {
    const entry = this.fresh(query.profileId);
    if (entry === undefined || !this.serves(query, limit)) return undefined;
    // A hit keeps the entry among the most recently used.
    this.entries.delete(query.profileId);
    this.entries.set(query.profileId, entry);
    const to = query.range.to.getTime();
    const from = query.range.from?.getTime() ?? Number.NEGATIVE_INFINITY;
    const position = query.position;
    if (position !== null) {
      const oldest = entry.rows.at(-1);
      // Every row after the position is in the entry when the entry reaches back to the position.
      if (!entry.complete && (oldest === undefined || isAfter(oldest, position))) return undefined;
      const after = entry.rows.filter((row) => {
        const ts = row.ts.getTime();
        return ts < to && ts >= from && isAfter(row, position);
      });
      return after.slice(Math.max(0, after.length - limit));
    }
    const rows: QueryLogRow[] = [];
    for (const row of entry.rows) {
      const ts = row.ts.getTime();
      if (ts >= to) continue;
      // The rows older than `from` are older still outside the entry: the answer is whole.
      if (ts < from) return rows;
      rows.push(row);
      if (rows.length === limit) return rows;
    }
    return entry.complete ? rows : undefined;
  }

  /**
   * Fills the profile's entry with `read`, which answers the profile's newest rows (at most the number it is
   * given, over all time); a fill already under way for the profile is waited for instead. Rows recorded
   * while it reads are merged into what it read; an erasure meanwhile drops it.
   */
  async fill(profileId: string, read: (limit: number) => Promise<QueryLogRow[]>): Promise<void> {
    if (this.fresh(profileId) !== undefined) return;
    const under = this.fillings.get(profileId);
    if (under !== undefined) return under.done;
    this.entries.delete(profileId);
    const filling: Filling = { done: Promise.resolve(), late: [], erased: false };
    this.fillings.set(profileId, filling);
    filling.done = (async () => {
      try {
        const rows = await read(this.limits.rowsPerProfile);
        if (filling.erased) return;
        const entry = { rows, complete: rows.length < this.limits.rowsPerProfile, filledAt: this.now() };
        this.merge(entry, filling.late);
        this.entries.set(profileId, entry);
        for (const [oldest] of this.entries) {
          if (this.entries.size <= this.limits.profiles) break;
          this.entries.delete(oldest);
        }
      } finally {
        this.fillings.delete(profileId);
      }
    })();
    return filling.done;
  }

  /** Rows the store has just stored: merged into the entries (and fills) of their profiles. */
  recorded(batch: QueryLogColumns): void {
    const { codes, values } = batch.profileId;
    // Decided once per profile of the batch: most batches (a simulator's millions of rows) touch none kept.
    const kept = values.map((profileId) => this.entries.has(profileId) || this.fillings.has(profileId));
    if (!kept.includes(true)) return;
    const wanted = new Map<number, number[]>();
    for (let index = 0; index < batch.length; index += 1) {
      const code = codes[index] as number;
      if (kept[code] !== true) continue;
      let indexes = wanted.get(code);
      if (indexes === undefined) {
        indexes = [];
        wanted.set(code, indexes);
      }
      indexes.push(index);
    }
    for (const [code, indexes] of wanted) {
      const profileId = values[code] as string;
      const rows = this.newestOf(batch, indexes);
      const entry = this.entries.get(profileId);
      if (entry !== undefined) this.merge(entry, rows);
      const filling = this.fillings.get(profileId);
      if (filling !== undefined) filling.late = mergeNewestFirst(filling.late, rows);
    }
  }

  /** Forgets the profiles (their rows are being erased): their entries go, and fills under way never land. */
  forget(profileIds: readonly string[]): void {
    for (const profileId of profileIds) {
      this.entries.delete(profileId);
      const filling = this.fillings.get(profileId);
      if (filling !== undefined) filling.erased = true;
    }
  }

  private fresh(profileId: string): Entry | undefined {
    const entry = this.entries.get(profileId);
    if (entry === undefined) return undefined;
    if (this.now() - entry.filledAt < this.limits.lifetimeMs) return entry;
    this.entries.delete(profileId);
    return undefined;
  }

  /** The newest rows (at most an entry's worth) among `indexes` of the batch, newest first. */
  private newestOf(batch: QueryLogColumns, indexes: number[]): QueryLogRow[] {
    // The store keeps whole milliseconds (toInt64 truncates); ids compare by their high word, then the low.
    const ts = (index: number) => Math.trunc(batch.ts[index] as number);
    const word = (index: number, high: 0 | 1) => batch.rowId[2 * index + high] as number;
    indexes.sort((a, b) => ts(b) - ts(a) || word(b, 1) - word(a, 1) || word(b, 0) - word(a, 0));
    return indexes.slice(0, this.limits.rowsPerProfile).map((index) => {
      const row = queryLogRowAt(batch, index);
      row.ts = new Date(ts(index));
      return row;
    });
  }

  /**
   * Merges rows into an entry, keeping its promise: every row from its oldest on, at most its size. An entry
   * that is not whole is full (it was filled or trimmed to its size), so a row older than all of it is
   * trimmed away with the oldest.
   */
  private merge(entry: Entry, rows: readonly QueryLogRow[]): void {
    if (rows.length === 0) return;
    const merged = mergeNewestFirst(entry.rows, rows);
    if (merged.length > this.limits.rowsPerProfile) {
      merged.length = this.limits.rowsPerProfile;
      entry.complete = false;
    }
    entry.rows = merged;
  }
}
