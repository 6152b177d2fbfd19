import { DomainError, notFound } from '../shared/domain-error.js';
import type { IdentityStore } from './identity.ports.js';
import type { AccountRecord } from './identity.records.js';
import type { ActingMember } from './membership.ports.js';
import type { MembershipRow } from './membership.records.js';
import type { OrganisationMembership } from './membership.schemas.js';

/**
 * The membership a credential acts through (ADR 0047): the organisation the session chose, if the account
 * still belongs to it, else the account's own organisation; null when it belongs to neither (its own
 * organisation was handed over and it was removed), which leaves it only its own account's routes.
 */
export async function actingMembership(
  store: Pick<IdentityStore, 'memberships'>,
  account: Pick<AccountRecord, 'id' | 'orgId'>,
  chosenOrgId: string | null,
): Promise<MembershipRow | null> {
  if (chosenOrgId !== null && chosenOrgId !== account.orgId) {
    const chosen = await store.memberships.find(chosenOrgId, account.id);
    if (chosen !== null) return chosen;
  }
  return store.memberships.find(account.orgId, account.id);
}

/** The organisations of an account, and which one a session acts in (issue 39). */
export class OrganisationMembershipService {
  constructor(private readonly deps: { store: Pick<IdentityStore, 'memberships' | 'memberAccess'> }) {}

  /** GET /v1/auth/me/organisations. */
  async list(accountId: string, currentOrgId: string | null): Promise<OrganisationMembership[]> {
    const rows = await this.deps.store.memberships.listByAccount(accountId);
    return rows.map((row) => ({
      org_id: row.orgId,
      name: row.orgName,
      role: row.role,
      current: row.orgId === currentOrgId,
    }));
  }

  /** The account as a member of `orgId`; 404 when it does not belong to it. */
  async membershipOf(accountId: string, orgId: string): Promise<ActingMember> {
    const membership = await this.deps.store.memberships.find(orgId, accountId);
    if (membership === null) throw notFound('organisation');
    return { accountId, orgId, role: membership.role };
  }

  /**
   * PUT /v1/auth/me/organisation: the session acts in `orgId` from its next request; an organisation the
   * account does not belong to is 404, as its resources are.
   */
  async switchTo(account: AccountRecord, sessionId: string, orgId: string): Promise<OrganisationMembership> {
    const current = (await this.list(account.id, orgId)).find((membership) => membership.current);
    if (current === undefined) throw notFound('organisation');
    await this.deps.store.memberAccess.setActingOrganisation(
      sessionId,
      orgId === account.orgId ? null : orgId,
    );
    return current;
  }

  /**
   * An owner cannot delete their account while their organisation has other members (spec 7
   * organisation_has_members): they transfer ownership or remove the members first.
   */
  async assertMayDeleteAccount(accountId: string): Promise<void> {
    for (const membership of await this.deps.store.memberships.listByAccount(accountId)) {
      if (membership.role !== 'owner') continue;
      if ((await this.deps.store.memberships.count(membership.orgId)) > 1) {
        throw new DomainError(
          'organisation_has_members',
          `The organisation ${membership.orgName} has other members: transfer ownership (POST /v1/org/ownership) or remove them before deleting the account.`,
        );
      }
    }
  }
}
