import type { ServerMessage } from './agent-link.js';
import type { SendLane } from './link-pacer.js';
import {
  emptyLogRowMetrics,
  LogBatchRejectedError,
  type LogBatchRowError,
  type LogRowMetrics,
  logBatchMessage,
  type PendingLogBatch,
  type RefusedLogRow,
  splitLogBatch,
} from './log-batches.js';
import type { NodeAgentLogger } from './node-agent.options.js';

/** How long before a batch answered `batch_in_progress` is sent again. */
const BATCH_IN_PROGRESS_RETRY_MS = 1_000;

/** What the outbox sends through. */
export interface LogBatchLink {
  readonly open: boolean;
  sendText(text: string, lane: SendLane): void;
}

/**
 * The log batches sent and not settled yet, and what became of the rows (the agent's `metrics.logRows`): a
 * batch is settled by its `log_batch_ack`, sent again after a reconnect (the API stores it once under its id),
 * and asked about again a second after a `batch_in_progress` answer.
 */
export class LogBatchOutbox {
  private readonly batches = new Map<string, PendingLogBatch>();
  private readonly logRows = emptyLogRowMetrics();

  constructor(
    private readonly link: LogBatchLink,
    private readonly logger: NodeAgentLogger,
  ) {}

  /** A copy of the row counts. */
  get metrics(): LogRowMetrics {
    return structuredClone(this.logRows);
  }

  /**
   * Sends the rows as one batch, in as many messages as `maxMessageBytes` takes ({@link splitLogBatch}); resolves
   * with the rows kept of all parts, or rejects with the first part refused (its row numbers those of `rows`).
   */
  send(id: string, rows: Record<string, unknown>[], maxMessageBytes: number): Promise<number> {
    let parts: ReturnType<typeof splitLogBatch>;
    try {
      parts = splitLogBatch(id, rows, maxMessageBytes);
    } catch (error) {
      return Promise.reject(error);
    }
    const settled = parts.map(
      (part) =>
        new Promise<number>((resolve, reject) => {
          const batch: PendingLogBatch = {
            rows: part.rows,
            firstRow: part.firstRow,
            sent: false,
            resolve,
            reject: (error) =>
              reject(
                error instanceof LogBatchRejectedError && part.firstRow > 0
                  ? new LogBatchRejectedError(
                      error.batchId,
                      error.reason,
                      error.errors.map((rowError) => ({ ...rowError, row: rowError.row + part.firstRow })),
                    )
                  : error,
              ),
          };
          this.batches.set(part.id, batch);
          this.sendBatch(part.id, batch);
        }),
    );
    return Promise.all(settled).then((accepted) => accepted.reduce((total, count) => total + count, 0));
  }

  /** Sends again the batches whose acknowledgement a dropped link lost: the API tells a resend by its id. */
  resendAll(): void {
    for (const [id, batch] of this.batches) this.sendBatch(id, batch);
  }

  /** Rejects every batch not settled (the agent stopped). */
  rejectAll(error: Error): void {
    for (const batch of this.batches.values()) batch.reject(error);
    this.batches.clear();
  }

  /** The API answered a log batch: settle it, or ask again about one another copy of is being stored. */
  settled(message: ServerMessage): void {
    const id = String(message.id);
    const batch = this.batches.get(id);
    if (batch !== undefined && message.reason === 'batch_in_progress') {
      // Another copy is being stored (a resend raced the first send): ask again once it is settled.
      setTimeout(() => {
        if (this.batches.get(id) === batch) this.sendBatch(id, batch);
      }, BATCH_IN_PROGRESS_RETRY_MS).unref();
      return;
    }
    this.batches.delete(id);
    this.countSettled(id, batch, message);
    if (message.outcome === 'rejected') {
      const errors = Array.isArray(message.errors) ? (message.errors as LogBatchRowError[]) : [];
      batch?.reject(new LogBatchRejectedError(id, String(message.reason ?? 'rejected'), errors));
    } else batch?.resolve(Number(message.accepted));
  }

  private sendBatch(id: string, batch: PendingLogBatch): void {
    if (!this.link.open) return;
    if (batch.sent) this.logRows.resent += batch.rows.length;
    else this.logRows.sent += batch.rows.length;
    batch.sent = true;
    this.link.sendText(logBatchMessage(id, batch.rows), 'bulk');
  }

  /**
   * Counts what the API answered of a batch, and logs each row it refused (field and reason, never the row):
   * those are settled, never sent again, as the same row would be refused again.
   */
  private countSettled(id: string, batch: PendingLogBatch | undefined, message: ServerMessage): void {
    if (message.outcome === 'rejected') {
      const reason = String(message.reason ?? 'rejected');
      this.logRows.rejectedBatches[reason] = (this.logRows.rejectedBatches[reason] ?? 0) + 1;
      return;
    }
    if (message.outcome === 'stored') this.logRows.accepted += Number(message.accepted) || 0;
    if (typeof message.truncated === 'number') this.logRows.truncated += message.truncated;
    const refused = Array.isArray(message.refused) ? (message.refused as RefusedLogRow[]) : [];
    this.logRows.refused += refused.length;
    for (const row of refused)
      this.logger.warn('the API refused a log row; it is not sent again', {
        batch_id: id,
        row: row.index + (batch?.firstRow ?? 0),
        field: row.field,
        reason: row.reason,
      });
  }
}
