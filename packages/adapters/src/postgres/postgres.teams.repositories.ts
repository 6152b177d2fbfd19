import {
  type MemberAccessRepository,
  type MemberRow,
  type MembershipRepository,
  type MembershipRow,
  type OrganisationMembershipRow,
  type OrgInvitationRepository,
  type OrgInvitationRow,
  type Role,
  roleOf,
} from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface MembershipSqlRow {
  org_id: string;
  account_id: string;
  role: string;
  created_at: Date;
}

function membershipOf(row: MembershipSqlRow): MembershipRow {
  return { orgId: row.org_id, accountId: row.account_id, role: roleOf(row.role), createdAt: row.created_at };
}

/** Memberships on PostgreSQL. */
export class PostgresMembershipRepository implements MembershipRepository {
  constructor(private readonly db: Queryable) {}

  async find(orgId: string, accountId: string): Promise<MembershipRow | null> {
    const result = await this.db.query<MembershipSqlRow>(
      'SELECT org_id, account_id, role, created_at FROM memberships WHERE org_id = $1 AND account_id = $2',
      [orgId, accountId],
    );
    const row = result.rows[0];
    return row === undefined ? null : membershipOf(row);
  }

  async listByOrganisation(orgId: string): Promise<MemberRow[]> {
    const result = await this.db.query<MembershipSqlRow & { email: string }>(
      `SELECT m.org_id, m.account_id, m.role, m.created_at, a.email
       FROM memberships m JOIN accounts a ON a.id = m.account_id
       WHERE m.org_id = $1 ORDER BY m.created_at, m.account_id`,
      [orgId],
    );
    return result.rows.map((row) => ({ ...membershipOf(row), email: row.email }));
  }

  async listByAccount(accountId: string): Promise<OrganisationMembershipRow[]> {
    const result = await this.db.query<MembershipSqlRow & { name: string }>(
      `SELECT m.org_id, m.account_id, m.role, m.created_at, o.name
       FROM memberships m JOIN organisations o ON o.id = m.org_id
       WHERE m.account_id = $1 ORDER BY m.created_at, m.org_id`,
      [accountId],
    );
    return result.rows.map((row) => ({ ...membershipOf(row), orgName: row.name }));
  }

  async add(membership: MembershipRow): Promise<boolean> {
    const result = await this.db.query(
      `INSERT INTO memberships (org_id, account_id, role, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, account_id) DO NOTHING`,
      [membership.orgId, membership.accountId, membership.role, membership.createdAt],
    );
    return result.rowCount === 1;
  }

  async setRole(orgId: string, accountId: string, role: Role): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE memberships SET role = $3 WHERE org_id = $1 AND account_id = $2',
      [orgId, accountId, role],
    );
    return result.rowCount === 1;
  }

  async remove(orgId: string, accountId: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM memberships WHERE org_id = $1 AND account_id = $2', [
      orgId,
      accountId,
    ]);
    return result.rowCount === 1;
  }

  async count(orgId: string): Promise<number> {
    const result = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM memberships WHERE org_id = $1',
      [orgId],
    );
    return result.rows[0]?.count ?? 0;
  }
}

interface InvitationSqlRow {
  id: string;
  org_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

function invitationOf(row: InvitationSqlRow): OrgInvitationRow {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    role: roleOf(row.role),
    tokenHash: row.token_hash,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
  };
}

/** A live invitation: neither used, revoked nor expired at the query's `$n`. */
const LIVE = (at: string) => `accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${at}`;

/** Organisation invitations on PostgreSQL. */
export class PostgresOrgInvitationRepository implements OrgInvitationRepository {
  constructor(private readonly db: Queryable) {}

  async create(invitation: OrgInvitationRow): Promise<void> {
    await this.db.query(
      `INSERT INTO org_invitations (id, org_id, email, role, token_hash, invited_by, created_at, expires_at,
                                    accepted_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        invitation.id,
        invitation.orgId,
        invitation.email,
        invitation.role,
        invitation.tokenHash,
        invitation.invitedBy,
        invitation.createdAt,
        invitation.expiresAt,
        invitation.acceptedAt,
        invitation.revokedAt,
      ],
    );
  }

  async findByTokenHash(hash: string): Promise<OrgInvitationRow | null> {
    const result = await this.db.query<InvitationSqlRow>(
      'SELECT * FROM org_invitations WHERE token_hash = $1',
      [hash],
    );
    const row = result.rows[0];
    return row === undefined ? null : invitationOf(row);
  }

  async listLive(orgId: string, now: Date): Promise<OrgInvitationRow[]> {
    const result = await this.db.query<InvitationSqlRow>(
      `SELECT * FROM org_invitations WHERE org_id = $1 AND ${LIVE('$2')} ORDER BY created_at DESC, id DESC`,
      [orgId, now],
    );
    return result.rows.map(invitationOf);
  }

  async accept(id: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE org_invitations SET accepted_at = $2 WHERE id = $1 AND ${LIVE('$2')}`,
      [id, at],
    );
    return result.rowCount === 1;
  }

  async revoke(orgId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE org_invitations SET revoked_at = $3 WHERE id = $2 AND org_id = $1 AND ${LIVE('$3')}`,
      [orgId, id, at],
    );
    return result.rowCount === 1;
  }
}

/** The credentials of members on PostgreSQL. */
export class PostgresMemberAccessRepository implements MemberAccessRepository {
  constructor(private readonly db: Queryable) {}

  async setActingOrganisation(sessionId: string, orgId: string | null): Promise<void> {
    await this.db.query('UPDATE sessions SET acting_org_id = $2 WHERE id = $1', [sessionId, orgId]);
  }

  async resetActingOrganisation(accountId: string, orgId: string): Promise<void> {
    await this.db.query(
      'UPDATE sessions SET acting_org_id = NULL WHERE account_id = $1 AND acting_org_id = $2',
      [accountId, orgId],
    );
  }

  async revokeTokensOfOrganisation(accountId: string, orgId: string, at: Date): Promise<number> {
    const result = await this.db.query(
      'UPDATE api_tokens SET revoked_at = $3 WHERE account_id = $1 AND org_id = $2 AND revoked_at IS NULL',
      [accountId, orgId, at],
    );
    return result.rowCount ?? 0;
  }
}
