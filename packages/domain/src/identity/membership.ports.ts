import type {
  MemberRow,
  MembershipRow,
  OrganisationMembershipRow,
  OrgInvitationRow,
} from './membership.records.js';
import type { Role } from './roles.js';

/** Who belongs to which organisation, with which role. */
export interface MembershipRepository {
  find(orgId: string, accountId: string): Promise<MembershipRow | null>;
  /** The organisation's members with their addresses, oldest first. */
  listByOrganisation(orgId: string): Promise<MemberRow[]>;
  /** The account's memberships with the organisations' names, oldest first. */
  listByAccount(accountId: string): Promise<OrganisationMembershipRow[]>;
  /** Adds a membership; false when the account already belongs to the organisation. */
  add(membership: MembershipRow): Promise<boolean>;
  setRole(orgId: string, accountId: string, role: Role): Promise<boolean>;
  remove(orgId: string, accountId: string): Promise<boolean>;
  /** How many members the organisation has. */
  count(orgId: string): Promise<number>;
}

/** Invitations to join organisations. */
export interface OrgInvitationRepository {
  create(invitation: OrgInvitationRow): Promise<void>;
  findByTokenHash(hash: string): Promise<OrgInvitationRow | null>;
  /** The organisation's invitations neither accepted, revoked nor expired at `now`, newest first. */
  listLive(orgId: string, now: Date): Promise<OrgInvitationRow[]>;
  /** Marks the invitation accepted if it is still live at `at`; false when another use or a revocation won. */
  accept(id: string, at: Date): Promise<boolean>;
  /** Revokes a live invitation of the organisation; false when it has none by that id. */
  revoke(orgId: string, id: string, at: Date): Promise<boolean>;
}

/** The credentials of a member in an organisation: the organisation sessions act in, and tokens made there. */
export interface MemberAccessRepository {
  /** Sets the organisation the session acts in (null: the account's own). */
  setActingOrganisation(sessionId: string, orgId: string | null): Promise<void>;
  /** Every session of the account acting in `orgId` falls back to the account's own organisation. */
  resetActingOrganisation(accountId: string, orgId: string): Promise<void>;
  /** Revokes the account's live API tokens made in `orgId`; returns how many. */
  revokeTokensOfOrganisation(accountId: string, orgId: string, at: Date): Promise<number>;
}

/** The caller of a members use case: who they are, in which organisation, with which role. */
export interface ActingMember {
  accountId: string;
  orgId: string;
  role: Role;
}
