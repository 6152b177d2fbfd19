import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredResponse } from '@svc/domain';
import type pg from 'pg';

interface Row {
  scope: string;
  key: string;
  fingerprint: string;
  state: 'running' | 'completed';
  response: StoredResponse | null;
  created_at: Date;
  expires_at: Date;
}

function recordOf(row: Row): IdempotencyRecord {
  return {
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state,
    response: row.response,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Idempotency keys in Postgres. A claim is one atomic statement: insert, or take over a row that expired or
 * whose running request died; of concurrent claims on any number of connections exactly one wins.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: pg.Pool) {}

  async claim(
    record: { scope: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
    staleRunningBefore: Date,
  ): Promise<IdempotencyClaim> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const inserted = await this.pool.query(
        `INSERT INTO idempotency_keys AS existing (scope, key, fingerprint, state, response, created_at, expires_at)
         VALUES ($1, $2, $3, 'running', NULL, $4, $5)
         ON CONFLICT (scope, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, state = 'running', response = NULL,
               created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
           WHERE (existing.state = 'completed' AND existing.expires_at <= EXCLUDED.created_at)
              OR (existing.state = 'running' AND existing.created_at < $6)
         RETURNING scope`,
        [
          record.scope,
          record.key,
          record.fingerprint,
          record.createdAt,
          record.expiresAt,
          staleRunningBefore,
        ],
      );
      if (inserted.rowCount === 1) return { claimed: true };
      const existing = await this.pool.query<Row>(
        'SELECT * FROM idempotency_keys WHERE scope = $1 AND key = $2',
        [record.scope, record.key],
      );
      const row = existing.rows[0];
      // The holder released the key between the two statements: claim again.
      if (row !== undefined) return { claimed: false, existing: recordOf(row) };
    }
    throw new Error('idempotency key kept changing hands while being claimed');
  }

  async complete(scope: string, key: string, response: StoredResponse, expiresAt: Date): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'completed', response = $3, expires_at = $4
       WHERE scope = $1 AND key = $2 AND state = 'running'`,
      [scope, key, JSON.stringify(response), expiresAt],
    );
  }

  async release(scope: string, key: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'running'`,
      [scope, key],
    );
  }

  async purgeExpired(now: Date): Promise<number> {
    const deleted = await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
    return deleted.rowCount ?? 0;
  }
}
