import type { AuditSource } from '../audit/audit.ports.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { TeamsScope } from './identity-transaction.ports.js';
import type { ActingMember } from './membership.ports.js';
import type { MemberRow } from './membership.records.js';
import type { Member } from './membership.schemas.js';
import type { AssignableRole } from './roles.js';

/** The public member of a stored membership. */
function memberOf(row: MemberRow): Member {
  return { id: row.accountId, email: row.email, role: row.role, joined_at: row.createdAt.toISOString() };
}

/**
 * The members of an organisation (issue 39): listing, role changes, removal and the transfer of ownership.
 * The route's minimum role (the role matrix) is checked before; these add what depends on the member
 * changed: nobody but the owner touches the owner, and the organisation always keeps exactly one owner.
 */
export class MemberService {
  constructor(
    private readonly deps: Pick<IdentityDependencies<TeamsScope>, 'uow' | 'store' | 'clock' | 'random'>,
  ) {}

  /** GET /v1/org/members. */
  async list(orgId: string): Promise<Member[]> {
    return (await this.deps.store.memberships.listByOrganisation(orgId)).map(memberOf);
  }

  /**
   * PATCH /v1/org/members/{id}: the owner's role moves only with ownership (409 last_owner for the owner
   * themselves, 403 insufficient_role for anybody else). A lowered role applies to the member's very next
   * request, sessions and tokens alike, since the role is read with the credential.
   */
  async changeRole(
    actor: ActingMember,
    memberId: string,
    role: AssignableRole,
    source: AuditSource,
  ): Promise<Member> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const target = await this.targetOf(tx, actor.orgId, memberId);
      this.assertMayChange(actor, target, 'change the role of');
      if (target.role !== role) {
        await tx.identity.memberships.setRole(actor.orgId, memberId, role);
        await tx.audit.record({
          ...source,
          orgId: actor.orgId,
          action: 'member.role_changed',
          target: `org/members/${memberId}`,
          details: { email: target.email, from: target.role, to: role },
          at: now,
        });
        await emitWebhookEvent(tx, this.deps, actor.orgId, 'member.role_changed', {
          member_id: memberId,
          email: target.email,
          role,
          previous_role: target.role,
        });
      }
      return memberOf({ ...target, role });
    });
  }

  /**
   * DELETE /v1/org/members/{id}: the member's sessions acting in the organisation fall back to their own
   * organisation and the API tokens they made in it are revoked, in the same transaction. A member may
   * remove themselves (leave); the owner may not while others remain (409 organisation_has_members).
   */
  async remove(actor: ActingMember, memberId: string, source: AuditSource): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const target = await this.targetOf(tx, actor.orgId, memberId);
      this.assertMayChange(actor, target, 'remove');
      await tx.identity.memberships.remove(actor.orgId, memberId);
      await tx.identity.memberAccess.resetActingOrganisation(memberId, actor.orgId);
      await tx.identity.memberAccess.revokeTokensOfOrganisation(memberId, actor.orgId, now);
      await tx.audit.record({
        ...source,
        orgId: actor.orgId,
        action: 'member.removed',
        target: `org/members/${memberId}`,
        details: { email: target.email, role: target.role },
        at: now,
      });
      await emitWebhookEvent(tx, this.deps, actor.orgId, 'member.removed', {
        member_id: memberId,
        email: target.email,
        role: target.role,
      });
    });
  }

  /**
   * POST /v1/org/ownership: the owner hands the organisation to another member and becomes an admin, in one
   * transaction, so the organisation never has two owners or none.
   */
  async transferOwnership(actor: ActingMember, memberId: string, source: AuditSource): Promise<Member> {
    if (actor.role !== 'owner') {
      throw new DomainError('insufficient_role', 'Only the owner can transfer ownership.');
    }
    if (memberId === actor.accountId) {
      throw validationFailed([{ field: 'member_id', message: 'must be another member' }]);
    }
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const target = await this.targetOf(tx, actor.orgId, memberId);
      await tx.identity.memberships.setRole(actor.orgId, memberId, 'owner');
      await tx.identity.memberships.setRole(actor.orgId, actor.accountId, 'admin');
      await tx.audit.record({
        ...source,
        orgId: actor.orgId,
        action: 'member.ownership_transferred',
        target: `org/members/${memberId}`,
        details: { email: target.email, from: target.role },
        at: now,
      });
      await emitWebhookEvent(tx, this.deps, actor.orgId, 'member.ownership_transferred', {
        member_id: memberId,
        email: target.email,
        previous_owner_id: actor.accountId,
      });
      return memberOf({ ...target, role: 'owner' });
    });
  }

  private async targetOf(tx: TeamsScope, orgId: string, memberId: string): Promise<MemberRow> {
    const members = await tx.identity.memberships.listByOrganisation(orgId);
    const target = members.find((member) => member.accountId === memberId);
    if (target === undefined) throw notFound('member');
    return target;
  }

  /** Nobody but the owner touches the owner, and the owner's own role or membership moves only by transfer. */
  private assertMayChange(
    actor: ActingMember,
    target: MemberRow,
    what: 'remove' | 'change the role of',
  ): void {
    if (target.role !== 'owner') return;
    if (actor.role !== 'owner') {
      throw new DomainError('insufficient_role', `Only the owner can ${what} the owner.`);
    }
    if (what === 'remove') {
      throw new DomainError(
        'organisation_has_members',
        'The owner cannot leave the organisation: transfer ownership (POST /v1/org/ownership) first, or delete the account once no other member remains.',
      );
    }
    throw new DomainError(
      'last_owner',
      'The organisation must keep its owner: transfer ownership (POST /v1/org/ownership) instead.',
    );
  }
}
