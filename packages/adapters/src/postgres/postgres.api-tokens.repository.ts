import type { ApiTokenRepository, ApiTokenRow, KeysetPage, Scope } from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface TokenSqlRow {
  id: string;
  account_id: string;
  org_id: string;
  name: string;
  scopes: Scope[];
  secret_hash: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

function tokenOf(row: TokenSqlRow): ApiTokenRow {
  return {
    id: row.id,
    accountId: row.account_id,
    orgId: row.org_id,
    name: row.name,
    scopes: row.scopes,
    secretHash: row.secret_hash,
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

/** API tokens on PostgreSQL. */
export class PostgresApiTokenRepository implements ApiTokenRepository {
  constructor(private readonly db: Queryable) {}

  async create(token: ApiTokenRow): Promise<void> {
    await this.db.query(
      `INSERT INTO api_tokens (id, account_id, org_id, name, scopes, secret_hash, prefix, created_at,
                               expires_at, last_used_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        token.id,
        token.accountId,
        token.orgId,
        token.name,
        token.scopes,
        token.secretHash,
        token.prefix,
        token.createdAt,
        token.expiresAt,
        token.lastUsedAt,
        token.revokedAt,
      ],
    );
  }

  async findBySecretHash(hash: string): Promise<ApiTokenRow | null> {
    const result = await this.db.query<TokenSqlRow>('SELECT * FROM api_tokens WHERE secret_hash = $1', [
      hash,
    ]);
    const row = result.rows[0];
    return row === undefined ? null : tokenOf(row);
  }

  async findById(id: string): Promise<ApiTokenRow | null> {
    const result = await this.db.query<TokenSqlRow>('SELECT * FROM api_tokens WHERE id = $1', [id]);
    const row = result.rows[0];
    return row === undefined ? null : tokenOf(row);
  }

  async listByAccount(accountId: string, page: KeysetPage): Promise<ApiTokenRow[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const result = await this.db.query<TokenSqlRow>(
      `SELECT * FROM api_tokens
       WHERE account_id = $1 AND revoked_at IS NULL
         ${tail.sql}`,
      [accountId, ...tail.values],
    );
    return result.rows.map(tokenOf);
  }

  async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
      [id, accountId, at],
    );
    return result.rowCount === 1;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [id, at]);
  }

  async revokeAll(accountId: string, at: Date): Promise<number> {
    const result = await this.db.query(
      'UPDATE api_tokens SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL',
      [accountId, at],
    );
    return result.rowCount ?? 0;
  }
}
