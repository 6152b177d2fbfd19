/** One refused row of a rejected log batch: its index in the batch, the field and why. */
export interface LogBatchRowError {
  row: number;
  field: string;
  message: string;
}

/**
 * A log batch the API refused (docs/node-link-protocol.md `log_batch_ack`): nothing of it was stored.
 * `validation_failed` names the bad rows in `errors`; `storage_unavailable` is worth sending again later with
 * the same batch id (`sendLogBatch(rows, { id })`). (`batch_in_progress` never reaches the caller: the agent
 * asks again by itself.)
 */
export class LogBatchRejectedError extends Error {
  constructor(
    readonly batchId: string,
    readonly reason: string,
    readonly errors: readonly LogBatchRowError[] = [],
  ) {
    super(`log batch ${batchId} was rejected: ${reason}`);
    this.name = 'LogBatchRejectedError';
  }
}

/**
 * One row the cloud answered for the node's profile while the node was offline (spec 2.3 node_queue_hours), in
 * the form of the node's own records (`NodeLogRow`: ts, row_id, pop, device_id, … answer_ips).
 */
export type HeldLogRow = Record<string, unknown>;

/** A log batch sent and not settled yet; sent again with the same id after a reconnect. */
export interface PendingLogBatch {
  rows: Record<string, unknown>[];
  resolve(accepted: number): void;
  reject(error: Error): void;
}
