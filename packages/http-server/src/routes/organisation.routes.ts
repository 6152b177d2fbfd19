import {
  InvitationAccept,
  type InvitationService,
  type MemberService,
  OrganisationMembership,
  OrganisationMembershipList,
  type OrganisationMembershipService,
  OrganisationSwitch,
} from '@svc/domain';
import { z } from 'zod';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingSession } from './route-principal.js';

/**
 * The organisations of the signed-in account and the one its session acts in (issue 39, ADR 0047), leaving
 * one, and the acceptance of an invitation, which joins one. `credentialsChanged` drops the account's API
 * tokens from this server's credential cache.
 */
export function organisationRoutes(
  organisations: OrganisationMembershipService,
  invitations: InvitationService,
  members: MemberService,
  credentialsChanged: (accountId: string) => void,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'delete',
      path: '/v1/auth/me/organisations/{org_id}',
      operationId: 'leaveOrganisation',
      summary: 'Leave an organisation',
      description:
        'Any member but the owner (409 organisation_has_members: transfer ownership first). Sessions acting there fall back to the account’s own organisation, and the API tokens made there are revoked. An organisation the account does not belong to is 404.',
      tags: ['auth'],
      auth: 'session',
      request: { params: z.object({ org_id: z.uuid('must be a uuid') }) },
      errorStatuses: [409],
      responses: { 204: { description: 'Left.' } },
      handler: async (context) => {
        const { account } = actingSession(context.principal);
        const self = await organisations.membershipOf(account.id, context.params.org_id);
        await members.remove(self, account.id, auditSourceOf(context));
        credentialsChanged(account.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/me/organisations',
      operationId: 'listMyOrganisations',
      summary: 'The organisations the account belongs to',
      tags: ['auth'],
      auth: 'account',
      scope: 'account:read',
      responses: {
        200: {
          description: 'Every membership, oldest first; `current` marks the one this credential acts in.',
          schema: OrganisationMembershipList,
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: {
          organisations: await organisations.list(actingAccount(principal).id, principal?.orgId ?? null),
        },
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/auth/me/organisation',
      operationId: 'switchOrganisation',
      summary: 'Act in another organisation',
      description:
        'The session acts in `org_id` from its next request: GET /v1/auth/me answers it with the role there. An organisation the account does not belong to is 404. Should the membership end, the session falls back to the account’s own organisation. API tokens keep the organisation they were made in.',
      tags: ['auth'],
      auth: 'session',
      request: { body: OrganisationSwitch },
      responses: { 200: { description: 'The organisation now acted in.', schema: OrganisationMembership } },
      handler: async ({ principal, body }) => {
        const { session, account } = actingSession(principal);
        return { status: 200, body: await organisations.switchTo(account, session.id, body.org_id) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/org/invitations/accept',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation',
      description:
        'Joins the organisation with the invited role; the account’s verified address must be the invited one. The session then acts in that organisation. 400 invalid_token (unknown, revoked or for another address), token_expired (after 7 days), token_used (already accepted); 409 already_member.',
      tags: ['organisation'],
      auth: 'session',
      request: { body: InvitationAccept },
      errorStatuses: [400, 409],
      responses: {
        200: { description: 'The organisation joined, now acted in.', schema: OrganisationMembership },
      },
      handler: async (context) => {
        const { session, account } = actingSession(context.principal);
        const { orgId } = await invitations.accept(account, context.body.token, auditSourceOf(context));
        return { status: 200, body: await organisations.switchTo(account, session.id, orgId) };
      },
    }),
  ];
}
