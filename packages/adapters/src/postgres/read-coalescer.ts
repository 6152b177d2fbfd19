import { BatchCoalescer } from './batch-coalescer.js';

/** Options of a {@link ReadCoalescer}. */
export interface ReadCoalescerOptions<K, V> {
  /**
   * Reads the keys of one batch in one statement (keys distinct, at most `maxBatch`), answering each key
   * found; keys absent from the answer resolve to undefined.
   */
  readBatch(keys: readonly K[]): Promise<ReadonlyMap<K, V>>;
  /** Batches in flight at once; further reads queue until one of them is answered. */
  maxInFlight: number;
  /** Callers per batch at most (so keys per statement at most): a longer queue goes out in several batches. */
  maxBatch: number;
}

/**
 * Coalesces concurrent reads by key into batch reads ({@link BatchCoalescer}), without ever answering from
 * the past: callers of one batch asking the same key share one read of it. Several servers may share the
 * database: nothing is cached.
 */
export class ReadCoalescer<K, V> {
  private readonly batches: BatchCoalescer<K, V | undefined>;

  constructor(options: ReadCoalescerOptions<K, V>) {
    this.batches = new BatchCoalescer({
      maxInFlight: options.maxInFlight,
      maxBatch: options.maxBatch,
      runBatch: async (keys) => {
        const found = await options.readBatch([...new Set(keys)]);
        return keys.map((key) => found.get(key));
      },
    });
  }

  /** The value of `key` as read by a batch issued after this call, or undefined when not found. */
  read(key: K): Promise<V | undefined> {
    return this.batches.run(key);
  }
}
