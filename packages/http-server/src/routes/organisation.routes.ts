import {
  InvitationAccept,
  type InvitationService,
  OrganisationMembership,
  OrganisationMembershipList,
  type OrganisationMembershipService,
  OrganisationSwitch,
} from '@svc/domain';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingSession } from './route-principal.js';

/**
 * The organisations of the signed-in account and the one its session acts in (issue 39, ADR 0047), and the
 * acceptance of an invitation, which joins one.
 */
export function organisationRoutes(
  organisations: OrganisationMembershipService,
  invitations: InvitationService,
): AnyRoute[] {
  return [
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
