import type { TransactionRepositories } from '../postgres/postgres-unit-of-work.js';
import { MemoryIdentityStore } from './memory-identity.store.js';
import { MemoryMailQueue } from './memory-mail-queue.js';
import type { Snapshottable } from './memory-snapshot.js';

/** Every in-memory store of an engine-free server, and the repositories of one memory transaction. */
export class MemoryStores {
  readonly identity = new MemoryIdentityStore();
  readonly mailQueue = new MemoryMailQueue();

  /** Stores a failed memory transaction restores. */
  get participants(): readonly Snapshottable[] {
    return [this.identity, this.mailQueue];
  }

  transactionRepositories(counters: { mail: () => void }): TransactionRepositories {
    return { mail: this.mailQueue.writer(counters.mail), identity: this.identity.repositories() };
  }
}
