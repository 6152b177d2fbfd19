import type { MessageBus, OutboxMessage, OutboxRelay, TransactionScope, UnitOfWork } from '@svc/domain';
import type { TransactionRepositories } from '../shared/transaction-repositories.js';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * The outbox of an embedded, engine-free server: messages committed by {@link MemoryUnitOfWork} wait here
 * until drained to the bus, in commit order.
 */
export class MemoryOutboxRelay implements OutboxRelay {
  private readonly pending: { id: number; message: OutboxMessage }[] = [];
  private nextId = 1;
  private draining: Promise<number> | undefined;
  private started = false;

  constructor(private readonly bus: MessageBus) {}

  /** Called by the unit of work with the messages of a committed run. */
  commit(messages: readonly OutboxMessage[]): void {
    for (const message of messages) this.pending.push({ id: this.nextId++, message });
    if (this.started && messages.length > 0) void this.drain();
  }

  drain(): Promise<number> {
    if (this.draining !== undefined) return this.draining;
    const draining = this.publishPending().finally(() => {
      this.draining = undefined;
    });
    this.draining = draining;
    return draining;
  }

  private async publishPending(): Promise<number> {
    let published = 0;
    for (let next = this.pending[0]; next !== undefined; next = this.pending[0]) {
      await this.bus.publish(next.message.subject, next.message.payload, { messageId: String(next.id) });
      this.pending.shift();
      published += 1;
    }
    return published;
  }

  start(): void {
    this.started = true;
    void this.drain();
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.draining;
  }
}

/** What a {@link MemoryUnitOfWork} runs against. */
export interface MemoryUnitOfWorkOptions {
  /** The repositories of a run (memory stores are shared; the snapshot gives them rollback). */
  repositories: (counters: { mail: () => void }) => TransactionRepositories;
  /** Stores restored to their state before a run that fails. */
  participants: readonly Snapshottable[];
  /** Called after a run that queued mail commits. */
  onMailCommitted?: () => void;
}

/**
 * Runs work one at a time and keeps what a run wrote only if it resolves, which is what a transaction promises
 * to the code inside it: outbox messages are released on success, and store snapshots are restored on failure.
 */
export class MemoryUnitOfWork implements UnitOfWork {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly relay: MemoryOutboxRelay,
    private readonly options: MemoryUnitOfWorkOptions,
  ) {}

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const messages: OutboxMessage[] = [];
      let mail = 0;
      const snapshots = this.options.participants.map((participant) => participant.snapshot());
      try {
        const value = await work({
          outbox: { enqueue: async (message) => void messages.push(message) },
          ...this.options.repositories({
            mail: () => {
              mail += 1;
            },
          }),
        });
        this.relay.commit(messages);
        if (mail > 0) this.options.onMailCommitted?.();
        return value;
      } catch (error) {
        this.options.participants.forEach((participant, index) => {
          participant.restore(snapshots[index]);
        });
        throw error;
      }
    });
    // The chain only orders runs; a failed run already rejects its own caller, the next run must still go.
    this.queue = result.catch(() => undefined);
    return result;
  }
}
