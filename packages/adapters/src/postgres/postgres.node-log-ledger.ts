import type { LogBatchClaim, NodeLogBatchLedger } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

/** The ledger of stored node log batches on PostgreSQL (migration 0017, node_log_batches). */
export class PostgresNodeLogBatchLedger implements NodeLogBatchLedger {
  constructor(private readonly db: Queryable) {}

  async claim(
    nodeId: string,
    batchId: string,
    rows: number,
    at: Date,
    staleBefore: Date,
  ): Promise<LogBatchClaim> {
    // One statement: a new batch is inserted, a stale unfinished claim taken over, anything else left as is.
    const claimed = await this.db.query(
      `INSERT INTO node_log_batches (node_id, batch_id, rows, claimed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (node_id, batch_id) DO UPDATE SET rows = EXCLUDED.rows, claimed_at = EXCLUDED.claimed_at
         WHERE node_log_batches.stored_at IS NULL AND node_log_batches.claimed_at <= $5
       RETURNING batch_id`,
      [nodeId, batchId, rows, at, staleBefore],
    );
    if (claimed.rowCount === 1) return { state: 'claimed' };
    const existing = await this.db.query<{ rows: number; stored: boolean }>(
      'SELECT rows, stored_at IS NOT NULL AS stored FROM node_log_batches WHERE node_id = $1 AND batch_id = $2',
      [nodeId, batchId],
    );
    const row = existing.rows[0];
    // Released between the two statements: the caller may write it.
    if (row === undefined) return this.claim(nodeId, batchId, rows, at, staleBefore);
    return row.stored ? { state: 'stored', rows: row.rows } : { state: 'in_progress' };
  }

  async markStored(nodeId: string, batchId: string, at: Date): Promise<void> {
    await this.db.query('UPDATE node_log_batches SET stored_at = $3 WHERE node_id = $1 AND batch_id = $2', [
      nodeId,
      batchId,
      at,
    ]);
  }

  async release(nodeId: string, batchId: string): Promise<void> {
    await this.db.query(
      'DELETE FROM node_log_batches WHERE node_id = $1 AND batch_id = $2 AND stored_at IS NULL',
      [nodeId, batchId],
    );
  }

  async forgetStored(storedBefore: Date, limit: number): Promise<number> {
    const forgotten = await this.db.query(
      `DELETE FROM node_log_batches WHERE ctid IN (
         SELECT ctid FROM node_log_batches WHERE stored_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [storedBefore, limit],
    );
    return forgotten.rowCount ?? 0;
  }
}
