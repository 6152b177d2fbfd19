import type { Member, MemberList } from '../../teams.types.js';
import type { Transport } from '../../transport.js';

/** Members of the organisation the credential acts in, `/v1/org/members` (issue 39, docs/roles.md). */
export class MembersResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/org/members (scope account:read, any member): every member, oldest first. */
  async list(): Promise<Member[]> {
    return (await this.transport.send<MemberList>({ method: 'GET', path: '/v1/org/members' })).data.members;
  }

  /**
   * PATCH /v1/org/members/{id} (session; admins and the owner): the new role applies to the member's next
   * request. ApiError 403 `insufficient_role` for the owner's role unless you are the owner, 409 `last_owner`
   * for the owner's own (transfer ownership instead).
   */
  async updateRole(id: string, role: 'admin' | 'editor' | 'viewer'): Promise<Member> {
    return (
      await this.transport.send<Member>({
        method: 'PATCH',
        path: `/v1/org/members/${encodeURIComponent(id)}`,
        body: { role },
      })
    ).data;
  }

  /** DELETE /v1/org/members/{id} (session; admins and the owner): their sessions fall back, their tokens here end. */
  async remove(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/org/members/${encodeURIComponent(id)}` });
  }
}
