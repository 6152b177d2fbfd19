import type {
  PasskeyRecord,
  PasskeyRepository,
  WebAuthnCeremony,
  WebAuthnChallengeRepository,
  WebAuthnChallengeRow,
} from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface PasskeySqlRow {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: string;
  transports: string[];
  aaguid: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const PASSKEY_COLUMNS =
  'id, account_id, credential_id, public_key, counter, transports, aaguid, name, created_at, last_used_at';

function passkeyOf(row: PasskeySqlRow): PasskeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(row.public_key),
    counter: Number(row.counter),
    transports: row.transports,
    aaguid: row.aaguid,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Passkeys on PostgreSQL. */
export class PostgresPasskeyRepository implements PasskeyRepository {
  constructor(private readonly db: Queryable) {}

  async create(passkey: PasskeyRecord): Promise<boolean> {
    // ON CONFLICT keeps a surrounding transaction usable: the caller rolls back with its own error.
    const result = await this.db.query(
      `INSERT INTO passkeys (${PASSKEY_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (credential_id) DO NOTHING`,
      [
        passkey.id,
        passkey.accountId,
        passkey.credentialId,
        Buffer.from(passkey.publicKey),
        passkey.counter,
        passkey.transports,
        passkey.aaguid,
        passkey.name,
        passkey.createdAt,
        passkey.lastUsedAt,
      ],
    );
    return result.rowCount === 1;
  }

  async listByAccount(accountId: string): Promise<PasskeyRecord[]> {
    const result = await this.db.query<PasskeySqlRow>(
      `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return result.rows.map(passkeyOf);
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
    const result = await this.db.query<PasskeySqlRow>(
      `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1`,
      [credentialId],
    );
    const row = result.rows[0];
    return row === undefined ? null : passkeyOf(row);
  }

  async rename(accountId: string, id: string, name: string): Promise<PasskeyRecord | null> {
    const result = await this.db.query<PasskeySqlRow>(
      `UPDATE passkeys SET name = $3 WHERE account_id = $1 AND id = $2 RETURNING ${PASSKEY_COLUMNS}`,
      [accountId, id, name],
    );
    const row = result.rows[0];
    return row === undefined ? null : passkeyOf(row);
  }

  async recordUse(id: string, counter: number, at: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE passkeys SET counter = $2, last_used_at = $3
       WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
      [id, counter, at],
    );
    return result.rowCount === 1;
  }

  async lockCredentials(accountId: string): Promise<{ hasPassword: boolean; passkeyIds: string[] } | null> {
    // The row lock comes first, in a statement of its own: the passkeys are read after it is held, so a
    // removal that waited for it sees what the one before it left.
    const account = await this.db.query<{ has_password: boolean }>(
      'SELECT password_hash IS NOT NULL AS has_password FROM accounts WHERE id = $1 FOR UPDATE',
      [accountId],
    );
    const owner = account.rows[0];
    if (owner === undefined) return null;
    const passkeys = await this.db.query<{ id: string }>(
      'SELECT id FROM passkeys WHERE account_id = $1 ORDER BY created_at, id',
      [accountId],
    );
    return { hasPassword: owner.has_password, passkeyIds: passkeys.rows.map((row) => row.id) };
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM passkeys WHERE account_id = $1 AND id = $2', [
      accountId,
      id,
    ]);
    return result.rowCount === 1;
  }
}

interface ChallengeSqlRow {
  challenge_hash: string;
  ceremony: WebAuthnCeremony;
  session_id: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Single-use WebAuthn challenges on PostgreSQL. */
export class PostgresWebAuthnChallengeRepository implements WebAuthnChallengeRepository {
  constructor(private readonly db: Queryable) {}

  async create(challenge: WebAuthnChallengeRow): Promise<void> {
    await this.db.query(
      `INSERT INTO webauthn_challenges (challenge_hash, ceremony, session_id, created_at, expires_at, used_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        challenge.challengeHash,
        challenge.ceremony,
        challenge.sessionId,
        challenge.createdAt,
        challenge.expiresAt,
        challenge.usedAt,
      ],
    );
  }

  async consume(
    ceremony: WebAuthnCeremony,
    challengeHash: string,
    sessionId: string | null,
    now: Date,
  ): Promise<WebAuthnChallengeRow | null> {
    const result = await this.db.query<ChallengeSqlRow>(
      `UPDATE webauthn_challenges SET used_at = $4
       WHERE challenge_hash = $2 AND ceremony = $1 AND session_id IS NOT DISTINCT FROM $3::uuid
         AND used_at IS NULL AND expires_at > $4
       RETURNING challenge_hash, ceremony, session_id, created_at, expires_at, used_at`,
      [ceremony, challengeHash, sessionId, now],
    );
    const row = result.rows[0];
    if (row === undefined) return null;
    return {
      challengeHash: row.challenge_hash,
      ceremony: row.ceremony,
      sessionId: row.session_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    };
  }

  async prune(before: Date): Promise<void> {
    await this.db.query('DELETE FROM webauthn_challenges WHERE expires_at < $1', [before]);
  }
}
