/** Options of a {@link BatchCoalescer}. */
export interface BatchCoalescerOptions<I, O> {
  /**
   * Runs the items of one batch (at most `maxBatch`, in arrival order) in one statement, answering one output
   * per item, in the same order.
   */
  runBatch(items: readonly I[]): Promise<readonly O[]>;
  /** Batches in flight at once; further items queue until one of them is answered. */
  maxInFlight: number;
  /** Items per batch at most: a longer queue goes out in several batches. */
  maxBatch: number;
}

interface Waiter<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent statements into batch statements: an item with a free slot (fewer than `maxInFlight`
 * batches out) goes at once, alone; otherwise it waits in the queue, and the queue goes out as one batch
 * (arrival order, `maxBatch` at most) as soon as a slot frees. A batch is issued only after every item in it
 * was submitted, so each item still observes every write that committed before it was submitted. A failing
 * batch rejects only its own callers.
 */
export class BatchCoalescer<I, O> {
  private readonly queue: Waiter<I, O>[] = [];
  private inFlight = 0;

  constructor(private readonly options: BatchCoalescerOptions<I, O>) {
    if (!(options.maxInFlight >= 1 && options.maxBatch >= 1))
      throw new RangeError('maxInFlight and maxBatch must be at least 1');
  }

  /** The output of `item`, run by a batch issued after this call. */
  run(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
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

  private async issue(batch: Waiter<I, O>[]): Promise<void> {
    try {
      const outputs = await this.options.runBatch(batch.map((waiter) => waiter.item));
      if (outputs.length !== batch.length)
        throw new Error(`a batch of ${batch.length} items answered ${outputs.length} outputs`);
      for (const [index, output] of outputs.entries()) batch[index]?.resolve(output);
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      this.inFlight -= 1;
      this.drain();
    }
  }
}
