import { createHash } from 'node:crypto';

/** One refused row of a rejected log batch: its index in the batch, the field and why. */
export interface LogBatchRowError {
  row: number;
  field: string;
  message: string;
}

/** Refusals of a whole batch worth sending again later under the same id: nothing of it was stored. */
export const RETRYABLE_LOG_BATCH_REASONS: ReadonlySet<string> = new Set([
  'storage_unavailable',
  'batch_in_progress',
]);

/**
 * A log batch the API refused whole (docs/node-link-protocol.md `log_batch_ack`): nothing of it was stored.
 * `storage_unavailable` is worth sending again later with the same batch id (`sendLogBatch(rows, { id })`,
 * see {@link retryable}); `row_too_large` is the kit's own, for a row no link message holds. (Bad rows are
 * refused one by one and counted in the agent's `metrics`, the others stored; older servers refused the
 * batch whole as `validation_failed`, naming the bad rows in `errors`. `batch_in_progress` never reaches the
 * caller: the agent asks again by itself.)
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

  /** True when the same batch sent again later (same id) may be stored: the refusal was a passing one. */
  get retryable(): boolean {
    return RETRYABLE_LOG_BATCH_REASONS.has(this.reason);
  }
}

/** One row the API refused while storing the others of its batch: its index in the rows sent, and why. */
export interface RefusedLogRow {
  index: number;
  field: string;
  reason: string;
}

/**
 * What became of the log rows the agent sent since it was made (its `metrics.logRows`), for the node's own
 * metrics: rows never to be sent again (`refused`) are told apart from those sent again after a lost link
 * (`resent`).
 */
export interface LogRowMetrics {
  /** Rows sent in `log_batch` messages, first sends only. */
  sent: number;
  /** Rows sent again: after a reconnect (no acknowledgement came) or a `batch_in_progress` answer. */
  resent: number;
  /** Rows the cloud stored (`accepted` of `stored` answers). */
  accepted: number;
  /** Rows refused one by one (`refused` of the answers): not stored, and not worth sending again. */
  refused: number;
  /** Stored rows whose answer addresses the cloud cut to its cap (`truncated` of the answers). */
  truncated: number;
  /** Batches refused whole (`rejected` answers), by reason. */
  rejectedBatches: Record<string, number>;
}

/** Metrics of an agent that has sent nothing yet. */
export function emptyLogRowMetrics(): LogRowMetrics {
  return { sent: 0, resent: 0, accepted: 0, refused: 0, truncated: 0, rejectedBatches: {} };
}

/**
 * One row the cloud answered for the node's profile while the node was offline (spec 2.3 node_queue_hours), in
 * the form of the node's own records (`NodeLogRow`: ts, row_id, pop, device_id, … answer_ips).
 */
export type HeldLogRow = Record<string, unknown>;

/** A log batch sent and not settled yet; sent again with the same id after a reconnect. */
export interface PendingLogBatch {
  rows: Record<string, unknown>[];
  /** Index in the caller's rows of this batch's first row (a part of a split batch starts further on). */
  firstRow: number;
  /** True once sent: a later send is a resend. */
  sent: boolean;
  resolve(accepted: number): void;
  reject(error: Error): void;
}

/** Most rows one `log_batch` message may carry (docs/node-link-protocol.md). */
export const LOG_BATCH_MAX_ROWS = 10_000;
/** Longest batch id the link takes. */
const MAX_BATCH_ID_LENGTH = 64;

/** One `log_batch` message of a batch split to fit: its id, its rows, and where they start in the batch. */
export interface LogBatchPart {
  id: string;
  rows: Record<string, unknown>[];
  /** Index in the caller's rows of this part's first row. */
  firstRow: number;
}

/** The `log_batch` message of `id` and `rows` as the link sends it. */
export function logBatchMessage(id: string, rows: readonly Record<string, unknown>[]): string {
  return JSON.stringify({ type: 'log_batch', id, rows });
}

/**
 * Splits a batch into `log_batch` messages of at most `maxMessageBytes` (UTF-8 JSON text) and
 * {@link LOG_BATCH_MAX_ROWS} rows, rows kept in order. A batch that fits is one message under its own id; the
 * parts of a split one are `<id>.<n>` (from 0), or `<sha256 of id, 40 hex>.<n>` when the id is too long for a
 * suffix. The split depends only on the rows, so the same batch sent again (same id) gives the same parts and
 * the server answers the stored ones `duplicate`. Throws {@link LogBatchRejectedError} (`row_too_large`) for
 * a row that fits in no message.
 */
export function splitLogBatch(
  id: string,
  rows: readonly Record<string, unknown>[],
  maxMessageBytes: number,
): LogBatchPart[] {
  if (rows.length <= LOG_BATCH_MAX_ROWS && Buffer.byteLength(logBatchMessage(id, rows)) <= maxMessageBytes)
    return [{ id, rows: [...rows], firstRow: 0 }];
  const suffixRoom = 1 + String(rows.length).length;
  const base =
    id.length + suffixRoom <= MAX_BATCH_ID_LENGTH
      ? id
      : createHash('sha256').update(id).digest('hex').slice(0, 40);
  // The envelope with the longest part id: every part then fits whatever its number.
  const envelope = Buffer.byteLength(logBatchMessage(`${base}.${'9'.repeat(suffixRoom - 1)}`, []));
  const parts: LogBatchPart[] = [];
  let current: Record<string, unknown>[] = [];
  let firstRow = 0;
  let size = envelope;
  rows.forEach((row, index) => {
    const rowBytes = Buffer.byteLength(JSON.stringify(row));
    if (envelope + rowBytes > maxMessageBytes) {
      throw new LogBatchRejectedError(id, 'row_too_large', [
        {
          row: index,
          field: '',
          message: `the row is larger than a link message (${maxMessageBytes} bytes)`,
        },
      ]);
    }
    const separator = current.length === 0 ? 0 : 1;
    if (current.length === LOG_BATCH_MAX_ROWS || size + separator + rowBytes > maxMessageBytes) {
      parts.push({ id: `${base}.${parts.length}`, rows: current, firstRow });
      current = [];
      firstRow = index;
      size = envelope;
    }
    size += (current.length === 0 ? 0 : 1) + rowBytes;
    current.push(row);
  });
  if (current.length > 0) parts.push({ id: `${base}.${parts.length}`, rows: current, firstRow });
  return parts;
}
