import type { SecondFactorRepository, TotpState } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

/** TOTP state and recovery codes on PostgreSQL. */
export class PostgresSecondFactorRepository implements SecondFactorRepository {
  constructor(private readonly db: Queryable) {}

  async totp(accountId: string): Promise<TotpState> {
    const result = await this.db.query<{
      totp_secret: string | null;
      totp_pending_secret: string | null;
      totp_enabled_at: Date | null;
      totp_last_step: string | null;
    }>(
      'SELECT totp_secret, totp_pending_secret, totp_enabled_at, totp_last_step FROM accounts WHERE id = $1',
      [accountId],
    );
    const row = result.rows[0];
    return {
      secret: row?.totp_secret ?? null,
      pendingSecret: row?.totp_pending_secret ?? null,
      enabledAt: row?.totp_enabled_at ?? null,
      lastStep: row?.totp_last_step == null ? null : Number(row.totp_last_step),
    };
  }

  async setPendingTotp(accountId: string, sealedSecret: string | null): Promise<void> {
    await this.db.query('UPDATE accounts SET totp_pending_secret = $2 WHERE id = $1', [
      accountId,
      sealedSecret,
    ]);
  }

  async enableTotp(accountId: string, at: Date, step: number): Promise<void> {
    await this.db.query(
      `UPDATE accounts SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_enabled_at = $2,
                           totp_last_step = $3
       WHERE id = $1 AND totp_pending_secret IS NOT NULL`,
      [accountId, at, step],
    );
  }

  async disableTotp(accountId: string): Promise<void> {
    await this.db.query(
      `UPDATE accounts SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL
       WHERE id = $1`,
      [accountId],
    );
  }

  async acceptTotpStep(accountId: string, step: number): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE accounts SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)',
      [accountId, step],
    );
    return result.rowCount === 1;
  }

  async replaceRecoveryCodes(accountId: string, codeHashes: readonly string[], at: Date): Promise<void> {
    await this.db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
    await this.db.query(
      `INSERT INTO recovery_codes (account_id, code_hash, created_at)
       SELECT $1, hash, $3 FROM unnest($2::text[]) AS hash`,
      [accountId, [...codeHashes], at],
    );
  }

  async consumeRecoveryCode(accountId: string, codeHash: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE recovery_codes SET used_at = $3 WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL',
      [accountId, codeHash, at],
    );
    return result.rowCount === 1;
  }

  async remainingRecoveryCodes(accountId: string): Promise<number> {
    const result = await this.db.query<{ count: string }>(
      'SELECT count(*) FROM recovery_codes WHERE account_id = $1 AND used_at IS NULL',
      [accountId],
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  async setMfa(accountId: string, mfa: boolean): Promise<void> {
    await this.db.query('UPDATE accounts SET mfa = $2 WHERE id = $1', [accountId, mfa]);
  }
}
