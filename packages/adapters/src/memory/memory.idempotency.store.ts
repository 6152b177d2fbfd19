import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredResponse } from '@svc/domain';

/** Idempotency keys in a Map: for embedding and unit tests (one process, so claims are trivially atomic). */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();

  private static id(scope: string, key: string): string {
    return JSON.stringify([scope, key]);
  }

  async claim(
    record: { scope: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
    staleRunningBefore: Date,
  ): Promise<IdempotencyClaim> {
    const id = MemoryIdempotencyStore.id(record.scope, record.key);
    const existing = this.records.get(id);
    const live =
      existing !== undefined &&
      (existing.state === 'completed'
        ? existing.expiresAt.getTime() > record.createdAt.getTime()
        : existing.createdAt.getTime() >= staleRunningBefore.getTime());
    if (existing !== undefined && live) return { claimed: false, existing: { ...existing } };
    this.records.set(id, { ...record, state: 'running', response: null });
    return { claimed: true };
  }

  async complete(scope: string, key: string, response: StoredResponse, expiresAt: Date): Promise<void> {
    const record = this.records.get(MemoryIdempotencyStore.id(scope, key));
    if (record !== undefined)
      this.records.set(MemoryIdempotencyStore.id(scope, key), {
        ...record,
        state: 'completed',
        response,
        expiresAt,
      });
  }

  async release(scope: string, key: string): Promise<void> {
    const id = MemoryIdempotencyStore.id(scope, key);
    if (this.records.get(id)?.state === 'running') this.records.delete(id);
  }

  async purgeExpired(now: Date): Promise<number> {
    let purged = 0;
    for (const [id, record] of this.records) {
      if (record.expiresAt.getTime() <= now.getTime()) {
        this.records.delete(id);
        purged += 1;
      }
    }
    return purged;
  }
}
