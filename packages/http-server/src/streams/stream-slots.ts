import { DomainError } from '@svc/domain';

/** Live log streams an account may hold open on one API server (spec 6.1, 8). */
const STREAMS_PER_ACCOUNT = 4;

/** Counts the open live streams of each account on this API server. */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAccount: number = STREAMS_PER_ACCOUNT) {}

  /** Takes a slot for `accountId` (429 too_many_streams when all are taken); the answer gives it back once. */
  acquire(accountId: string): () => void {
    const taken = this.open.get(accountId) ?? 0;
    if (taken >= this.perAccount) {
      throw new DomainError(
        'too_many_streams',
        `At most ${this.perAccount} live log streams per account are open at once; close one or poll the tail with a cursor.`,
      );
    }
    this.open.set(accountId, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(accountId) ?? 1) - 1;
      if (left <= 0) this.open.delete(accountId);
      else this.open.set(accountId, left);
    };
  }
}
