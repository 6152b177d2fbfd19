import type { OrganisationMembership, OrganisationMembershipList } from '../../teams.types.js';
import type { Transport } from '../../transport.js';

/** The organisations of the account and the one this session acts in (issue 39, ADR 0047). */
export class OrganisationsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/me/organisations: every membership; `current` marks the one the credential acts in. */
  async list(): Promise<OrganisationMembership[]> {
    return (
      await this.transport.send<OrganisationMembershipList>({
        method: 'GET',
        path: '/v1/auth/me/organisations',
      })
    ).data.organisations;
  }

  /** PUT /v1/auth/me/organisation (session): acts in `orgId` from the next request; 404 if not a member. */
  async switchTo(orgId: string): Promise<OrganisationMembership> {
    return (
      await this.transport.send<OrganisationMembership>({
        method: 'PUT',
        path: '/v1/auth/me/organisation',
        body: { org_id: orgId },
      })
    ).data;
  }

  /** DELETE /v1/auth/me/organisations/{org_id} (session): leaves; the owner gets 409 organisation_has_members. */
  async leave(orgId: string): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: `/v1/auth/me/organisations/${encodeURIComponent(orgId)}`,
    });
  }
}
