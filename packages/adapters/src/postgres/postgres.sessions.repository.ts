import type { SessionRepository, SessionRow, SignInMethod } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface SessionSqlRow {
  id: string;
  account_id: string;
  token_hash: string;
  token_issued_at: Date;
  previous_token_hash: string | null;
  previous_valid_until: Date | null;
  created_at: Date;
  last_used_at: Date;
  user_agent: string;
  ip: string;
  method: SignInMethod;
  strong: boolean;
  restricted: boolean;
  revoked_at: Date | null;
  acting_org_id: string | null;
}

function sessionOf(row: SessionSqlRow): SessionRow {
  return {
    id: row.id,
    accountId: row.account_id,
    tokenHash: row.token_hash,
    tokenIssuedAt: row.token_issued_at,
    previousTokenHash: row.previous_token_hash,
    previousValidUntil: row.previous_valid_until,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    userAgent: row.user_agent,
    ip: row.ip,
    method: row.method,
    strong: row.strong,
    restricted: row.restricted,
    revokedAt: row.revoked_at,
    actingOrgId: row.acting_org_id,
  };
}

/** Sessions on PostgreSQL. */
export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: Queryable) {}

  async create(session: SessionRow): Promise<void> {
    await this.db.query(
      `INSERT INTO sessions (id, account_id, token_hash, token_issued_at, previous_token_hash,
                             previous_valid_until, created_at, last_used_at, user_agent, ip, method, strong,
                             revoked_at, restricted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        session.id,
        session.accountId,
        session.tokenHash,
        session.tokenIssuedAt,
        session.previousTokenHash,
        session.previousValidUntil,
        session.createdAt,
        session.lastUsedAt,
        session.userAgent,
        session.ip,
        session.method,
        session.strong,
        session.revokedAt,
        session.restricted,
      ],
    );
  }

  async findByTokenHash(hash: string, now: Date): Promise<SessionRow | null> {
    const result = await this.db.query<SessionSqlRow>(
      `SELECT * FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL
       UNION ALL
       SELECT * FROM sessions
       WHERE previous_token_hash = $1 AND previous_valid_until > $2 AND revoked_at IS NULL
       LIMIT 1`,
      [hash, now],
    );
    const row = result.rows[0];
    return row === undefined ? null : sessionOf(row);
  }

  async findById(accountId: string, id: string): Promise<SessionRow | null> {
    const result = await this.db.query<SessionSqlRow>(
      'SELECT * FROM sessions WHERE id = $1 AND account_id = $2',
      [id, accountId],
    );
    const row = result.rows[0];
    return row === undefined ? null : sessionOf(row);
  }

  async renew(
    id: string,
    expectedHash: string,
    next: { tokenHash: string; issuedAt: Date; previousValidUntil: Date },
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE sessions SET previous_token_hash = token_hash, previous_valid_until = $4,
                           token_hash = $3, token_issued_at = $5
       WHERE id = $1 AND token_hash = $2 AND revoked_at IS NULL`,
      [id, expectedHash, next.tokenHash, next.previousValidUntil, next.issuedAt],
    );
    return result.rowCount === 1;
  }

  async liftRestriction(id: string): Promise<void> {
    await this.db.query('UPDATE sessions SET restricted = false, strong = true WHERE id = $1', [id]);
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE sessions SET last_used_at = GREATEST(last_used_at, $2) WHERE id = $1', [
      id,
      at,
    ]);
  }

  async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE sessions SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
      [id, accountId, at],
    );
    return result.rowCount === 1;
  }

  async revokeAllExcept(accountId: string, exceptId: string | null, at: Date): Promise<number> {
    const result = await this.db.query(
      `UPDATE sessions SET revoked_at = $3
       WHERE account_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
      [accountId, exceptId, at],
    );
    return result.rowCount ?? 0;
  }

  async listLive(accountId: string, createdAfter: Date, usedAfter: Date): Promise<SessionRow[]> {
    const result = await this.db.query<SessionSqlRow>(
      `SELECT * FROM sessions
       WHERE account_id = $1 AND revoked_at IS NULL AND created_at > $2 AND last_used_at > $3
       ORDER BY created_at DESC, id DESC`,
      [accountId, createdAfter, usedAfter],
    );
    return result.rows.map(sessionOf);
  }
}
