import type { LogBatchClaim, NodeLogBatchLedger } from '@svc/domain';

interface LedgerEntry {
  rows: number;
  claimedAt: Date;
  storedAt: Date | null;
}

/**
 * The ledger of stored node log batches of an engine-free server, with the rules of the PostgreSQL one
 * (node_log_batches): one claim per (node, batch), taken over once stale, remembered once stored.
 */
export class MemoryNodeLogBatchLedger implements NodeLogBatchLedger {
  private readonly batches = new Map<string, LedgerEntry>();

  async claim(
    nodeId: string,
    batchId: string,
    rows: number,
    at: Date,
    staleBefore: Date,
  ): Promise<LogBatchClaim> {
    const key = `${nodeId}/${batchId}`;
    const existing = this.batches.get(key);
    if (existing?.storedAt != null) return { state: 'stored', rows: existing.rows };
    if (existing !== undefined && existing.claimedAt > staleBefore) return { state: 'in_progress' };
    this.batches.set(key, { rows, claimedAt: new Date(at), storedAt: null });
    return { state: 'claimed' };
  }

  async markStored(nodeId: string, batchId: string, at: Date): Promise<void> {
    const entry = this.batches.get(`${nodeId}/${batchId}`);
    if (entry !== undefined) entry.storedAt = new Date(at);
  }

  async release(nodeId: string, batchId: string): Promise<void> {
    const key = `${nodeId}/${batchId}`;
    if (this.batches.get(key)?.storedAt === null) this.batches.delete(key);
  }

  async forgetStored(storedBefore: Date, limit: number): Promise<number> {
    let forgotten = 0;
    for (const [key, entry] of this.batches) {
      if (forgotten === limit) break;
      if (entry.storedAt !== null && entry.storedAt < storedBefore) {
        this.batches.delete(key);
        forgotten += 1;
      }
    }
    return forgotten;
  }
}
