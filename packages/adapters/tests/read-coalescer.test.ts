import { describe, expect, it } from 'vitest';
import { ReadCoalescer } from '../src/postgres/read-coalescer.js';

/** A batch reader whose batches the test answers (or fails) one by one, recording what each asked. */
function controlledReads() {
  const batches: {
    keys: readonly string[];
    answer(values: Record<string, number>): void;
    fail(error: Error): void;
  }[] = [];
  const readBatch = (keys: readonly string[]) =>
    new Promise<ReadonlyMap<string, number>>((resolve, reject) => {
      batches.push({
        keys,
        answer: (values) => resolve(new Map(Object.entries(values))),
        fail: reject,
      });
    });
  return { batches, readBatch };
}

/** Lets the coalescer's promise reactions (answers, next batches) run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe(ReadCoalescer.name, () => {
  it('sends a read at once, alone, when nothing is in flight', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 8 });

    const read = sut.read('a');

    expect(batches.map((batch) => batch.keys)).toEqual([['a']]);
    batches[0]?.answer({ a: 1 });
    await expect(read).resolves.toBe(1);
  });

  it('queues reads asked while a batch is in flight and sends them as one batch once it is answered', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 8 });

    const first = sut.read('a');
    const queued = [sut.read('b'), sut.read('c'), sut.read('b')];
    expect(batches).toHaveLength(1);

    batches[0]?.answer({ a: 1 });
    await settled();

    // Issued only after the queued reads were asked, with each key once.
    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b', 'c']]);
    batches[1]?.answer({ b: 2, c: 3 });
    await expect(first).resolves.toBe(1);
    await expect(Promise.all(queued)).resolves.toEqual([2, 3, 2]);
  });

  it('answers undefined for a key the batch did not find', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 8 });

    const found = sut.read('a');
    const queued = [sut.read('x'), sut.read('b')];
    batches[0]?.answer({ a: 1 });
    await settled();
    batches[1]?.answer({ b: 2 });

    await expect(found).resolves.toBe(1);
    await expect(Promise.all(queued)).resolves.toEqual([undefined, 2]);
  });

  it('never puts more than maxBatch callers in one batch, taking the queue in arrival order', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 2 });

    const reads = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => sut.read(key));
    for (let index = 0; index < 4; index += 1) {
      const batch = batches[index];
      batch?.answer(Object.fromEntries(batch.keys.map((key) => [key, key.charCodeAt(0)])));
      await settled();
    }

    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f']]);
    await expect(Promise.all(reads)).resolves.toEqual([97, 98, 99, 100, 101, 102]);
  });

  it('keeps at most maxInFlight batches out at once', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 2, maxBatch: 8 });

    const reads = ['a', 'b', 'c', 'd'].map((key) => sut.read(key));
    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b']]);

    batches[1]?.answer({ b: 2 });
    await settled();
    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b'], ['c', 'd']]);

    batches[0]?.answer({ a: 1 });
    batches[2]?.answer({ c: 3, d: 4 });
    await expect(Promise.all(reads)).resolves.toEqual([1, 2, 3, 4]);
  });

  it('rejects only the callers of a failing batch, and goes on with the queue', async () => {
    const { batches, readBatch } = controlledReads();
    const sut = new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 8 });

    const first = sut.read('a');
    const failing = Promise.allSettled([sut.read('b'), sut.read('c')]);
    batches[0]?.answer({ a: 1 });
    await settled();
    const after = sut.read('d');
    batches[1]?.fail(new Error('connection lost'));
    await settled();
    batches[2]?.answer({ d: 4 });

    await expect(first).resolves.toBe(1);
    const outcomes = await failing;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes)
      expect(outcome.status === 'rejected' && (outcome.reason as Error).message).toBe('connection lost');
    await expect(after).resolves.toBe(4);
    expect(batches.map((batch) => batch.keys)).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('rejects the callers of a batch whose reader throws before answering, and frees its slot', async () => {
    let calls = 0;
    const sut = new ReadCoalescer<string, number>({
      maxInFlight: 1,
      maxBatch: 8,
      readBatch: (keys) => {
        calls += 1;
        if (calls === 1) throw new Error('no connection');
        return Promise.resolve(new Map(keys.map((key) => [key, 7])));
      },
    });

    await expect(sut.read('a')).rejects.toThrow('no connection');
    await expect(sut.read('b')).resolves.toBe(7);
  });

  it('refuses a cap below one', () => {
    const readBatch = async () => new Map<string, number>();
    expect(() => new ReadCoalescer({ readBatch, maxInFlight: 0, maxBatch: 8 })).toThrow(RangeError);
    expect(() => new ReadCoalescer({ readBatch, maxInFlight: 1, maxBatch: 0 })).toThrow(RangeError);
  });
});
