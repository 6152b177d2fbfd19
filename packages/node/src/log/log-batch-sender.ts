import { randomUUID } from 'node:crypto';
import { LogBatchRejectedError, type NodeAgent } from '@svc/node-agent-kit';
import type { RecordedQuery } from './query-log-store.js';

/** Rows per batch: the link takes at most 10,000 (docs/node-link-protocol.md). */
const BATCH_ROWS = 1_000;
/** Rows kept while the link is down; beyond, the oldest are dropped (they stay in the node's own store). */
const MAX_PENDING = 10_000;

/**
 * Sends recorded queries to the API over the link (`log_batch`), for profiles whose destination also keeps
 * them in the cloud (`both`). One batch is in flight at a time; the kit sends an unsettled batch again with its
 * id after a reconnect, and a batch refused for a passing reason is offered again under the same id, so the
 * cloud stores each row once. Rows the API refuses one by one are settled (the kit logs and counts them in its
 * metrics); a batch refused whole for good is dropped from sending (the node keeps its rows).
 */
export class LogBatchSender {
  private readonly pending: RecordedQuery[] = [];
  private readonly timer: NodeJS.Timeout;
  private retry: { id: string; rows: RecordedQuery[] } | null = null;
  private sending = false;
  private acceptedRows = 0;
  private settledRows = 0;

  constructor(
    private readonly agent: Pick<NodeAgent, 'connected' | 'sendLogBatch'>,
    intervalMs: number,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Rows the API kept in the cloud, and rows of every batch it settled (kept or not, as for an API without a columnar store). */
  get counts(): { accepted: number; settled: number } {
    return { accepted: this.acceptedRows, settled: this.settledRows };
  }

  add(row: RecordedQuery): void {
    this.pending.push(row);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
  }

  /** Sends what is pending, one batch after the other, while the link is up. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.agent.connected && (this.retry !== null || this.pending.length > 0)) {
        const batch = this.retry ?? { id: randomUUID(), rows: this.pending.splice(0, BATCH_ROWS) };
        this.retry = null;
        if (!(await this.send(batch))) return;
      }
    } finally {
      this.sending = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Sends one batch; false when it is to be offered again later. */
  private async send(batch: { id: string; rows: RecordedQuery[] }): Promise<boolean> {
    try {
      this.acceptedRows += await this.agent.sendLogBatch(
        batch.rows.map((row) => ({ ...row })),
        { id: batch.id },
      );
      this.settledRows += batch.rows.length;
      return true;
    } catch (error) {
      if (error instanceof LogBatchRejectedError && !error.retryable) {
        this.log(`the API refused log batch ${batch.id} (${error.reason}); its rows stay on this node only`);
        this.settledRows += batch.rows.length;
        return true;
      }
      // Not connected, stopping, or a passing refusal: the same batch goes again at a later flush.
      this.retry = batch;
      return false;
    }
  }
}
