import type {
  DataExportArchiveSummary,
  DataExportClaim,
  DataExportRecord,
  DataExportRepository,
  DataExportState,
  KeysetPage,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface DataExportSqlRow {
  id: string;
  account_id: string;
  org_id: string;
  status: DataExportState;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date | null;
  size_bytes: string | null;
  sha256: string | null;
  chunk_count: number | null;
  attempts: number;
}

const COLUMNS =
  'id, account_id, org_id, status, created_at, completed_at, expires_at, size_bytes, sha256, chunk_count, attempts';
const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

function exportOf(row: DataExportSqlRow): DataExportRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    orgId: row.org_id,
    status: row.status,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    expiresAt: row.expires_at,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    sha256: row.sha256,
    chunkCount: row.chunk_count,
    attempts: row.attempts,
  };
}

/**
 * Data exports on PostgreSQL (0013_data_exports.sql), their archives in data_export_chunks
 * (0016_data_export_chunks.sql) until they expire. Chunk writes lock the export's row and check the claim's
 * attempt, so a claim taken again after a lapsed lease shuts the earlier attempt out.
 */
export class PostgresDataExportRepository implements DataExportRepository {
  constructor(private readonly db: Queryable) {}

  async create(record: DataExportRecord): Promise<boolean> {
    const result = await this.db.query(
      `INSERT INTO data_exports (id, account_id, org_id, status, created_at, attempts)
       VALUES ($1, $2, $3, 'pending', $4, 0)
       ON CONFLICT (account_id) WHERE status = 'pending' DO NOTHING`,
      [record.id, record.accountId, record.orgId, record.createdAt],
    );
    return result.rowCount === 1;
  }

  async find(accountId: string, id: string): Promise<DataExportRecord | null> {
    const result = await this.db.query<DataExportSqlRow>(
      `SELECT ${COLUMNS} FROM data_exports WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    const row = result.rows[0];
    return row === undefined ? null : exportOf(row);
  }

  async list(accountId: string, page: KeysetPage): Promise<DataExportRecord[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const result = await this.db.query<DataExportSqlRow>(
      `SELECT ${COLUMNS} FROM data_exports
       WHERE account_id = $1 ${tail.sql}`,
      [accountId, ...tail.values],
    );
    return result.rows.map(exportOf);
  }

  async claimPending(now: Date, leaseUntil: Date): Promise<DataExportRecord | null> {
    const result = await this.db.query<DataExportSqlRow>(
      `WITH claimed AS (
         UPDATE data_exports SET lease_until = $2, attempts = attempts + 1
         WHERE id = (SELECT id FROM data_exports
                     WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}
       ), earlier AS (
         DELETE FROM data_export_chunks USING claimed WHERE data_export_chunks.export_id = claimed.id
       )
       SELECT ${COLUMNS} FROM claimed`,
      [now, leaseUntil],
    );
    const row = result.rows[0];
    return row === undefined ? null : exportOf(row);
  }

  async writeChunk(
    claim: DataExportClaim,
    seq: number,
    bytes: Uint8Array,
    leaseUntil: Date,
  ): Promise<boolean> {
    const result = await this.db.query(
      `WITH held AS (
         UPDATE data_exports SET lease_until = $5
         WHERE id = $1 AND status = 'pending' AND attempts = $2
         RETURNING id
       )
       INSERT INTO data_export_chunks (export_id, seq, bytes) SELECT id, $3, $4 FROM held
       ON CONFLICT (export_id, seq) DO UPDATE SET bytes = EXCLUDED.bytes`,
      [claim.id, claim.attempt, seq, bytes, leaseUntil],
    );
    return result.rowCount === 1;
  }

  async complete(
    claim: DataExportClaim,
    archive: DataExportArchiveSummary,
    completedAt: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE data_exports SET status = 'ready', chunk_count = $3, size_bytes = $4, sha256 = $5,
                               completed_at = $6, expires_at = $7, lease_until = NULL
       WHERE id = $1 AND status = 'pending' AND attempts = $2`,
      [
        claim.id,
        claim.attempt,
        archive.chunkCount,
        archive.sizeBytes,
        archive.sha256,
        completedAt,
        expiresAt,
      ],
    );
    if (result.rowCount !== 1) return false;
    await this.db.query('DELETE FROM data_export_chunks WHERE export_id = $1 AND seq >= $2', [
      claim.id,
      archive.chunkCount,
    ]);
    return true;
  }

  async fail(id: string, at: Date): Promise<void> {
    const result = await this.db.query(
      `UPDATE data_exports SET status = 'failed', completed_at = $2, lease_until = NULL
       WHERE id = $1 AND status = 'pending'`,
      [id, at],
    );
    if (result.rowCount === 1)
      await this.db.query('DELETE FROM data_export_chunks WHERE export_id = $1', [id]);
  }

  async chunk(accountId: string, id: string, seq: number, now: Date): Promise<Uint8Array | null> {
    const result = await this.db.query<{ bytes: Uint8Array }>(
      `SELECT c.bytes FROM data_export_chunks c JOIN data_exports e ON e.id = c.export_id
       WHERE e.id = $1 AND e.account_id = $2 AND e.status = 'ready' AND e.expires_at > $3 AND c.seq = $4`,
      [id, accountId, now, seq],
    );
    return result.rows[0]?.bytes ?? null;
  }

  async expireDue(now: Date): Promise<number> {
    const result = await this.db.query<{ id: string }>(
      `WITH expired AS (
         UPDATE data_exports SET status = 'expired' WHERE status = 'ready' AND expires_at <= $1 RETURNING id
       ), removed AS (
         DELETE FROM data_export_chunks USING expired WHERE data_export_chunks.export_id = expired.id
       )
       SELECT id FROM expired`,
      [now],
    );
    return result.rows.length;
  }

  async eraseAll(accountId: string): Promise<number> {
    const result = await this.db.query('DELETE FROM data_exports WHERE account_id = $1', [accountId]);
    return result.rowCount ?? 0;
  }
}
