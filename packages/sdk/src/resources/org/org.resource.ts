import type { Member } from '../../teams.types.js';
import type { Transport } from '../../transport.js';
import { InvitationsResource } from './invitations.resource.js';
import { MembersResource } from './members.resource.js';

/** The organisation the credential acts in, `/v1/org` (issue 39): members, invitations, ownership. */
export class OrgResource {
  /** Members and their roles, `/v1/org/members`. */
  readonly members: MembersResource;
  /** Invitations by email, `/v1/org/invitations`. */
  readonly invitations: InvitationsResource;

  constructor(private readonly transport: Transport) {
    this.members = new MembersResource(transport);
    this.invitations = new InvitationsResource(transport);
  }

  /**
   * POST /v1/org/ownership (the owner, signed in within five minutes: else ApiError 403 `reauth_required`):
   * the member becomes the owner and you an admin.
   */
  async transferOwnership(memberId: string): Promise<Member> {
    return (
      await this.transport.send<Member>({
        method: 'POST',
        path: '/v1/org/ownership',
        body: { member_id: memberId },
      })
    ).data;
  }
}
