import type { MessageBus, OutboxMessage, OutboxRelay, TransactionScope, UnitOfWork } from '@svc/domain';

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

/**
 * Runs work one at a time and keeps the outbox messages of a run only if it resolves, which is what a
 * transaction promises to the code inside it.
 */
export class MemoryUnitOfWork implements UnitOfWork {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly relay: MemoryOutboxRelay) {}

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const messages: OutboxMessage[] = [];
      const value = await work({ outbox: { enqueue: async (message) => void messages.push(message) } });
      this.relay.commit(messages);
      return value;
    });
    // The chain only orders runs; a failed run already rejects its own caller, the next run must still go.
    this.queue = result.catch(() => undefined);
    return result;
  }
}
