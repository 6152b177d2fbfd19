import type { Role } from './roles.js';

/** An account's membership of an organisation (one row per pair). */
export interface MembershipRow {
  orgId: string;
  accountId: string;
  role: Role;
  createdAt: Date;
}

/** A membership with the member's address, as an organisation lists its members. */
export interface MemberRow extends MembershipRow {
  email: string;
}

/** A membership with the organisation's name, as an account lists its organisations. */
export interface OrganisationMembershipRow extends MembershipRow {
  orgName: string;
}

/** An invitation to join an organisation, its token stored only as a keyed hash. */
export interface OrgInvitationRow {
  id: string;
  orgId: string;
  email: string;
  role: Role;
  tokenHash: string;
  /** The audit actor who invited (`account:<id>` or `token:<id>`). */
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}
