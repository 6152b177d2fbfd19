import type { DataExportRecord, DataExportRepository, DataExportState, KeysetPage } from '@svc/domain';
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
  attempts: number;
}

const COLUMNS = 'id, account_id, org_id, status, created_at, completed_at, expires_at, size_bytes, attempts';

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
    attempts: row.attempts,
  };
}

/** Data exports on PostgreSQL (0013_data_exports.sql); archives are stored in the row until they expire. */
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
    const result = await this.db.query<DataExportSqlRow>(
      `SELECT ${COLUMNS} FROM data_exports
       WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [accountId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
    );
    return result.rows.map(exportOf);
  }

  async claimPending(now: Date, leaseUntil: Date): Promise<DataExportRecord | null> {
    const result = await this.db.query<DataExportSqlRow>(
      `UPDATE data_exports SET lease_until = $2, attempts = attempts + 1
       WHERE id = (SELECT id FROM data_exports
                   WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= $1)
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [now, leaseUntil],
    );
    const row = result.rows[0];
    return row === undefined ? null : exportOf(row);
  }

  async complete(id: string, archive: string, completedAt: Date, expiresAt: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE data_exports SET status = 'ready', archive = $2, size_bytes = octet_length($2),
                               completed_at = $3, expires_at = $4, lease_until = NULL
       WHERE id = $1 AND status = 'pending'`,
      [id, archive, completedAt, expiresAt],
    );
    return result.rowCount === 1;
  }

  async fail(id: string, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE data_exports SET status = 'failed', completed_at = $2, lease_until = NULL
       WHERE id = $1 AND status = 'pending'`,
      [id, at],
    );
  }

  async archive(accountId: string, id: string, now: Date): Promise<string | null> {
    const result = await this.db.query<{ archive: string }>(
      `SELECT archive FROM data_exports
       WHERE id = $1 AND account_id = $2 AND status = 'ready' AND expires_at > $3`,
      [id, accountId, now],
    );
    return result.rows[0]?.archive ?? null;
  }

  async expireDue(now: Date): Promise<number> {
    const result = await this.db.query(
      `UPDATE data_exports SET status = 'expired', archive = NULL
       WHERE status = 'ready' AND expires_at <= $1`,
      [now],
    );
    return result.rowCount ?? 0;
  }

  async eraseAll(accountId: string): Promise<number> {
    const result = await this.db.query('DELETE FROM data_exports WHERE account_id = $1', [accountId]);
    return result.rowCount ?? 0;
  }
}
