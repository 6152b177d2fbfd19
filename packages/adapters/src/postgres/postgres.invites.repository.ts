import type { InviteRepository, InviteRow, WaitlistRepository, WaitlistRow } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface InviteSqlRow {
  id: string;
  code_hash: string;
  prefix: string;
  max_uses: number;
  uses: number;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** Invite codes on PostgreSQL. */
export class PostgresInviteRepository implements InviteRepository {
  constructor(private readonly db: Queryable) {}

  async create(invite: InviteRow): Promise<void> {
    await this.db.query(
      `INSERT INTO invites (id, code_hash, prefix, max_uses, uses, expires_at, revoked_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        invite.id,
        invite.codeHash,
        invite.prefix,
        invite.maxUses,
        invite.uses,
        invite.expiresAt,
        invite.revokedAt,
        invite.createdAt,
      ],
    );
  }

  async list(): Promise<InviteRow[]> {
    const result = await this.db.query<InviteSqlRow>('SELECT * FROM invites ORDER BY created_at DESC, id');
    return result.rows.map((row) => ({
      id: row.id,
      codeHash: row.code_hash,
      prefix: row.prefix,
      maxUses: row.max_uses,
      uses: row.uses,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      createdAt: row.created_at,
    }));
  }

  async consumeUse(codeHash: string, now: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE invites SET uses = uses + 1
       WHERE code_hash = $1 AND revoked_at IS NULL AND uses < max_uses AND (expires_at IS NULL OR expires_at > $2)`,
      [codeHash, now],
    );
    return result.rowCount === 1;
  }

  async revoke(codeHashOrId: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE invites SET revoked_at = $2
       WHERE (code_hash = $1 OR id::text = $1) AND revoked_at IS NULL`,
      [codeHashOrId, at],
    );
    return (result.rowCount ?? 0) > 0;
  }
}

/** Waitlist addresses on PostgreSQL. */
export class PostgresWaitlistRepository implements WaitlistRepository {
  constructor(private readonly db: Queryable) {}

  async upsert(email: string, at: Date): Promise<WaitlistRow> {
    const result = await this.db.query<{ email: string; created_at: Date; confirmed_at: Date | null }>(
      `INSERT INTO waitlist (email, created_at) VALUES ($1, $2)
       ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
       RETURNING email, created_at, confirmed_at`,
      [email, at],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error('waitlist upsert returned no row');
    return { email: row.email, createdAt: row.created_at, confirmedAt: row.confirmed_at };
  }

  async confirm(email: string, at: Date): Promise<void> {
    await this.db.query('UPDATE waitlist SET confirmed_at = COALESCE(confirmed_at, $2) WHERE email = $1', [
      email,
      at,
    ]);
  }
}
