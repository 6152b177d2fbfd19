import {
  Invitation,
  InvitationCreate,
  InvitationList,
  type InvitationService,
  Member,
  MemberList,
  MemberRoleUpdate,
  type MemberService,
  OwnershipTransfer,
} from '@svc/domain';
import { z } from 'zod';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingMember, actingOrgId } from './route-principal.js';

const MemberPath = z.object({ id: z.uuid('must be a uuid') });

/**
 * Members of the organisation the caller acts in, and the invitations to join it (issue 39, docs/roles.md).
 * Changes are made from signed-in sessions only. `credentialsChanged` drops a member's API tokens from this
 * server's credential cache, so that a lowered role or a removal applies to their next request.
 */
export function memberRoutes(
  members: MemberService,
  invitations: InvitationService,
  credentialsChanged: (accountId: string) => void,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/org/members',
      operationId: 'listMembers',
      summary: 'Members of the organisation',
      tags: ['organisation'],
      auth: 'account',
      scope: 'account:read',
      responses: { 200: { description: 'Every member, oldest first.', schema: MemberList } },
      handler: async ({ principal }) => ({
        status: 200,
        body: { members: await members.list(actingOrgId(principal)) },
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/org/members/{id}',
      operationId: 'updateMemberRole',
      summary: 'Change a member’s role',
      description:
        'Admins and the owner. The role applies to the member’s next request, sessions and tokens alike. Nobody but the owner touches the owner (403 insufficient_role), and the owner’s role moves only by transferring ownership (409 last_owner).',
      tags: ['organisation'],
      auth: 'session',
      request: { params: MemberPath, body: MemberRoleUpdate },
      errorStatuses: [409],
      responses: { 200: { description: 'The member with the new role.', schema: Member } },
      handler: async (context) => {
        const { params, body, principal } = context;
        const member = await members.changeRole(
          actingMember(principal),
          params.id,
          body.role,
          auditSourceOf(context),
        );
        credentialsChanged(params.id);
        return { status: 200, body: member };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/org/members/{id}',
      operationId: 'removeMember',
      summary: 'Remove a member',
      description:
        'Admins and the owner (a member leaves with DELETE /v1/auth/me/organisations/{org_id}). At once, the member’s sessions acting in the organisation fall back to their own and the API tokens they made in it are revoked. The owner cannot be removed (409 organisation_has_members: transfer ownership first).',
      tags: ['organisation'],
      auth: 'session',
      request: { params: MemberPath },
      errorStatuses: [409],
      responses: { 204: { description: 'Removed.' } },
      handler: async (context) => {
        await members.remove(actingMember(context.principal), context.params.id, auditSourceOf(context));
        credentialsChanged(context.params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/org/ownership',
      operationId: 'transferOwnership',
      summary: 'Transfer ownership to another member',
      description:
        'The owner only, with a sign-in within the last five minutes (403 reauth_required). The member becomes the owner and the former owner an admin, in one step.',
      tags: ['organisation'],
      auth: 'session',
      stepUp: true,
      request: { body: OwnershipTransfer },
      responses: { 200: { description: 'The new owner.', schema: Member } },
      handler: async (context) => {
        const { principal, body } = context;
        const owner = await members.transferOwnership(
          actingMember(principal),
          body.member_id,
          auditSourceOf(context),
        );
        credentialsChanged(body.member_id);
        if (principal?.accountId != null) credentialsChanged(principal.accountId);
        return { status: 200, body: owner };
      },
    }),
    ...invitationRoutes(invitations),
  ];
}

function invitationRoutes(invitations: InvitationService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/org/invitations',
      operationId: 'listInvitations',
      summary: 'Pending invitations',
      tags: ['organisation'],
      auth: 'account',
      scope: 'account:read',
      responses: {
        200: {
          description: 'Invitations neither used, revoked nor expired, newest first.',
          schema: InvitationList,
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: { invitations: await invitations.list(actingOrgId(principal)) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/org/invitations',
      operationId: 'createInvitation',
      summary: 'Invite someone by email',
      description:
        'Mails `{dashboard_url}/invitations/accept?token=inv_…`, valid 7 days and once. An address that already belongs answers 409 already_member. At most 20 invitations per organisation an hour (429 rate_limited). Ownership is never given by invitation.',
      tags: ['organisation'],
      auth: 'session',
      request: { body: InvitationCreate },
      errorStatuses: [409, 429],
      responses: {
        201: { description: 'The invitation; its token is only in the mail.', schema: Invitation },
      },
      handler: async (context) => {
        const actor = { ...actingMember(context.principal), email: actingAccount(context.principal).email };
        const invitation = await invitations.invite(actor, context.body, auditSourceOf(context));
        return {
          status: 201,
          body: invitation,
          headers: { Location: `/v1/org/invitations/${invitation.id}` },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/org/invitations/{id}',
      operationId: 'revokeInvitation',
      summary: 'Revoke an invitation',
      tags: ['organisation'],
      auth: 'session',
      request: { params: MemberPath },
      responses: { 204: { description: 'Revoked: the mailed link no longer works.' } },
      handler: async (context) => {
        await invitations.revoke(actingOrgId(context.principal), context.params.id, auditSourceOf(context));
        return { status: 204 };
      },
    }),
  ];
}
