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

interface Waiter<K, V> {
  key: K;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent reads by key into batch reads, without ever answering from the past: a read with a
 * free slot (fewer than `maxInFlight` batches out) goes at once, alone; otherwise it waits in the queue, and
 * the queue goes out as one batch (callers in arrival order, `maxBatch` at most) as soon as a slot frees. A
 * batch is issued only after every read in it was asked for, so each read still observes every write that
 * committed before it was asked (several servers may share the database: nothing is cached). A failing
 * batch rejects only its own callers.
 */
export class ReadCoalescer<K, V> {
  private readonly queue: Waiter<K, V>[] = [];
  private inFlight = 0;

  constructor(private readonly options: ReadCoalescerOptions<K, V>) {
    if (!(options.maxInFlight >= 1 && options.maxBatch >= 1))
      throw new RangeError('maxInFlight and maxBatch must be at least 1');
  }

  /** The value of `key` as read by a batch issued after this call, or undefined when not found. */
  read(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      this.drain();
    });
  }

  /** Issues batches from the head of the queue while slots are free. */
  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.issue(batch);
    }
  }

  private async issue(batch: Waiter<K, V>[]): Promise<void> {
    try {
      const found = await this.options.readBatch([...new Set(batch.map((waiter) => waiter.key))]);
      for (const waiter of batch) waiter.resolve(found.get(waiter.key));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      this.inFlight -= 1;
      this.drain();
    }
  }
}
