import type { AccountRecord, AccountRepository, OrganisationRecord } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface AccountSqlRow {
  id: string;
  org_id: string;
  role: string;
  email: string;
  email_verified_at: Date | null;
  password_hash: string | null;
  plan: string;
  mfa: boolean;
  is_admin: boolean;
  created_at: Date;
  deletion_requested_at: Date | null;
  deletion_due_at: Date | null;
}

const COLUMNS =
  'id, org_id, role, email, email_verified_at, password_hash, plan, mfa, is_admin, created_at, deletion_requested_at, deletion_due_at';

function accountOf(row: AccountSqlRow): AccountRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    role: row.role,
    email: row.email,
    emailVerifiedAt: row.email_verified_at,
    passwordHash: row.password_hash,
    plan: row.plan,
    mfa: row.mfa,
    isAdmin: row.is_admin,
    createdAt: row.created_at,
    deletionRequestedAt: row.deletion_requested_at,
    deletionDueAt: row.deletion_due_at,
  };
}

/** Accounts and organisations on PostgreSQL. */
export class PostgresAccountRepository implements AccountRepository {
  constructor(private readonly db: Queryable) {}

  async createWithOrganisation(organisation: OrganisationRecord, account: AccountRecord): Promise<boolean> {
    // One statement: the account insert decides (ON CONFLICT on the email), and the organisation is inserted
    // only from its RETURNING row, so a signup that loses a race leaves nothing behind. The foreign key is
    // checked at the end of the statement, when both rows exist.
    const result = await this.db.query(
      `WITH new_account AS (
         INSERT INTO accounts (id, org_id, role, email, email_verified_at, password_hash, plan, mfa, is_admin,
                               created_at, deletion_requested_at, deletion_due_at)
         VALUES ($1, $2, $5, $4, $6, $7, $8, $9, $10, $11, NULL, NULL)
         ON CONFLICT (email) DO NOTHING
         RETURNING id, org_id, role, created_at
       ),
       new_organisation AS (
         INSERT INTO organisations (id, name, created_at)
         SELECT org_id, $3, $11 FROM new_account
       )
       INSERT INTO memberships (org_id, account_id, role, created_at)
       SELECT org_id, id, role, created_at FROM new_account`,
      [
        account.id,
        organisation.id,
        organisation.name,
        account.email,
        account.role,
        account.emailVerifiedAt,
        account.passwordHash,
        account.plan,
        account.mfa,
        account.isAdmin,
        account.createdAt,
      ],
    );
    return result.rowCount === 1;
  }

  async findById(id: string): Promise<AccountRecord | null> {
    const result = await this.db.query<AccountSqlRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
    const row = result.rows[0];
    return row === undefined ? null : accountOf(row);
  }

  async findByEmail(email: string): Promise<AccountRecord | null> {
    const result = await this.db.query<AccountSqlRow>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1`, [
      email,
    ]);
    const row = result.rows[0];
    return row === undefined ? null : accountOf(row);
  }

  async listOwners(orgId: string): Promise<AccountRecord[]> {
    const result = await this.db.query<AccountSqlRow>(
      `SELECT ${COLUMNS} FROM accounts
       WHERE id IN (SELECT account_id FROM memberships WHERE org_id = $1 AND role = 'owner')
       ORDER BY created_at, id`,
      [orgId],
    );
    return result.rows.map(accountOf);
  }

  async markEmailVerified(id: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE accounts SET email_verified_at = $2 WHERE id = $1 AND email_verified_at IS NULL',
      [id, at],
    );
    return result.rowCount === 1;
  }

  async setPasswordHash(id: string, passwordHash: string | null): Promise<void> {
    await this.db.query('UPDATE accounts SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  async setOperator(id: string, isAdmin: boolean): Promise<void> {
    await this.db.query('UPDATE accounts SET is_admin = $2 WHERE id = $1', [id, isAdmin]);
  }

  async claimAccountExistsMail(id: string, at: Date, notBefore: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE accounts SET account_exists_mail_at = $2
       WHERE id = $1 AND (account_exists_mail_at IS NULL OR account_exists_mail_at <= $3)`,
      [id, at, notBefore],
    );
    return result.rowCount === 1;
  }

  async startDeletion(id: string, requestedAt: Date, dueAt: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE accounts SET deletion_requested_at = $2, deletion_due_at = $3
       WHERE id = $1 AND deletion_requested_at IS NULL`,
      [id, requestedAt, dueAt],
    );
    return result.rowCount === 1;
  }

  async cancelDeletion(id: string): Promise<'canceled' | 'not_pending' | 'erasure_started'> {
    const result = await this.db.query<{
      deletion_requested_at: Date | null;
      erasure_started_at: Date | null;
    }>('SELECT deletion_requested_at, erasure_started_at FROM accounts WHERE id = $1 FOR UPDATE', [id]);
    const row = result.rows[0];
    if (row === undefined || row.deletion_requested_at === null) return 'not_pending';
    if (row.erasure_started_at !== null) return 'erasure_started';
    await this.db.query(
      'UPDATE accounts SET deletion_requested_at = NULL, deletion_due_at = NULL WHERE id = $1',
      [id],
    );
    return 'canceled';
  }

  async claimDueErasure(now: Date): Promise<AccountRecord | null> {
    const result = await this.db.query<AccountSqlRow>(
      `UPDATE accounts SET erasure_started_at = $1
       WHERE id = (SELECT id FROM accounts
                   WHERE deletion_due_at <= $1 AND erasure_started_at IS NULL
                   ORDER BY deletion_due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [now],
    );
    const row = result.rows[0];
    return row === undefined ? null : accountOf(row);
  }

  async erase(id: string, at: Date): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE account_id = $1', [id]);
    await this.db.query('DELETE FROM api_tokens WHERE account_id = $1', [id]);
    await this.db.query('DELETE FROM recovery_codes WHERE account_id = $1', [id]);
    await this.db.query('DELETE FROM passkeys WHERE account_id = $1', [id]);
    await this.db.query('DELETE FROM one_time_tokens WHERE account_id = $1', [id]);
    await this.db.query(
      `UPDATE accounts SET email = 'erased-' || id || '@erased.invalid', password_hash = NULL, erased_at = $2,
                           totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL
       WHERE id = $1`,
      [id, at],
    );
    // Only the organisations the account owns go with it (ADR 0047): one it handed over keeps its name.
    await this.db.query(
      `UPDATE organisations SET name = 'erased'
       WHERE id IN (SELECT org_id FROM memberships WHERE account_id = $1 AND role = 'owner')`,
      [id],
    );
    await this.db.query('DELETE FROM memberships WHERE account_id = $1', [id]);
  }
}
