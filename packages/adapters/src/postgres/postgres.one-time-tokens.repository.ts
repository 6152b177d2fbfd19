import type { OneTimeTokenPurpose, OneTimeTokenRecord, OneTimeTokenRepository } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface TokenSqlRow {
  purpose: OneTimeTokenPurpose;
  hash: string;
  account_id: string | null;
  email: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Single-use emailed tokens on PostgreSQL. */
export class PostgresOneTimeTokenRepository implements OneTimeTokenRepository {
  constructor(private readonly db: Queryable) {}

  async create(token: OneTimeTokenRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO one_time_tokens (purpose, hash, account_id, email, created_at, expires_at, used_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        token.purpose,
        token.hash,
        token.accountId,
        token.email,
        token.createdAt,
        token.expiresAt,
        token.usedAt,
      ],
    );
  }

  async find(purpose: OneTimeTokenPurpose, hash: string): Promise<OneTimeTokenRecord | null> {
    const result = await this.db.query<TokenSqlRow>(
      'SELECT * FROM one_time_tokens WHERE purpose = $1 AND hash = $2',
      [purpose, hash],
    );
    const row = result.rows[0];
    if (row === undefined) return null;
    return {
      purpose: row.purpose,
      hash: row.hash,
      accountId: row.account_id,
      email: row.email,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    };
  }

  async consume(purpose: OneTimeTokenPurpose, hash: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE one_time_tokens SET used_at = $3 WHERE purpose = $1 AND hash = $2 AND used_at IS NULL',
      [purpose, hash, at],
    );
    return result.rowCount === 1;
  }

  async expireUnused(purpose: OneTimeTokenPurpose, email: string, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE one_time_tokens SET expires_at = LEAST(expires_at, $3)
       WHERE purpose = $1 AND email = $2 AND used_at IS NULL`,
      [purpose, email, at],
    );
  }

  async hasLive(purpose: OneTimeTokenPurpose, email: string, now: Date): Promise<boolean> {
    const result = await this.db.query(
      `SELECT 1 FROM one_time_tokens
       WHERE purpose = $1 AND email = $2 AND used_at IS NULL AND expires_at > $3 LIMIT 1`,
      [purpose, email, now],
    );
    return result.rows.length > 0;
  }
}
