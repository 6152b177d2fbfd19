/** What a claim on a batch found (see {@link NodeLogBatchLedger.claim}). */
export type LogBatchClaim =
  | { state: 'claimed' }
  | { state: 'stored'; rows: number }
  | { state: 'in_progress' };

/**
 * The ledger of node log batches stored in the cloud, by (node, batch id): how a batch sent again after a lost
 * acknowledgement is told apart from a new one, on every API server.
 */
export const NodeLogBatchLedger = Symbol.for('svc.NodeLogBatchLedger');
export interface NodeLogBatchLedger {
  /**
   * Claims the batch for writing `rows` rows: `claimed` when the caller is to write it (a new batch, or a claim
   * made at or before `staleBefore` that never completed); `stored` when it was stored (with the rows then
   * kept); `in_progress` while another fresh claim holds it.
   */
  claim(nodeId: string, batchId: string, rows: number, at: Date, staleBefore: Date): Promise<LogBatchClaim>;
  /** Marks a claimed batch stored. */
  markStored(nodeId: string, batchId: string, at: Date): Promise<void>;
  /** Drops a claim whose write failed, so that the batch sent again is written. */
  release(nodeId: string, batchId: string): Promise<void>;
  /**
   * Forgets up to `limit` batches stored before `storedBefore` (the ledger would otherwise grow with every batch
   * ever sent); answers how many it forgot.
   */
  forgetStored(storedBefore: Date, limit: number): Promise<number>;
}

/** The node sending a batch, as its link names it. */
export interface BatchSender {
  nodeId: string;
  orgId: string;
  profileId: string;
}
