import type {
  Invitation,
  InvitationCreate,
  InvitationList,
  OrganisationMembership,
} from '../../teams.types.js';
import type { Transport } from '../../transport.js';

/** Invitations to the organisation, `/v1/org/invitations` (issue 39). */
export class InvitationsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/org/invitations (admins and the owner): invitations neither used, revoked nor expired. */
  async list(): Promise<Invitation[]> {
    return (await this.transport.send<InvitationList>({ method: 'GET', path: '/v1/org/invitations' })).data
      .invitations;
  }

  /**
   * POST /v1/org/invitations (session; admins and the owner): mails a link valid 7 days and once. ApiError 409
   * `already_member` for an address that belongs, 429 `rate_limited` past 20 an hour.
   */
  async create(request: InvitationCreate): Promise<Invitation> {
    return (
      await this.transport.send<Invitation>({ method: 'POST', path: '/v1/org/invitations', body: request })
    ).data;
  }

  /** DELETE /v1/org/invitations/{id}: the mailed link stops working. */
  async revoke(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/org/invitations/${encodeURIComponent(id)}` });
  }

  /**
   * POST /v1/org/invitations/accept (session whose verified address is the invited one): joins with the
   * invited role, and the session acts in that organisation from then on.
   */
  async accept(token: string): Promise<OrganisationMembership> {
    return (
      await this.transport.send<OrganisationMembership>({
        method: 'POST',
        path: '/v1/org/invitations/accept',
        body: { token },
      })
    ).data;
  }
}
