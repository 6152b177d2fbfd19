import {
  type AccountDeletionService,
  AccountEnvelope,
  type OrganisationMembershipService,
  type SessionService,
} from '@svc/domain';
import { z } from 'zod';
import { clearedSessionCookie } from '../http/session-cookie.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

/** `{status: "active"}`: the answer of a cancelled deletion (spec 3). */
export const AccountStatus = z.object({ status: z.literal('active') });

/**
 * Account deletion with cooling-off and its cancel (spec 3, ROUTES.md "Sign-in and account").
 * `tokensRevoked` drops the account's API tokens from this server's credential cache.
 */
export function accountDeletionRoutes(
  {
    deletion,
    sessions,
    organisations,
  }: {
    deletion: AccountDeletionService;
    sessions: SessionService;
    organisations: OrganisationMembershipService;
  },
  secureCookies: boolean,
  tokensRevoked: (accountId: string) => void,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'delete',
      path: '/v1/auth/me',
      operationId: 'deleteCurrentAccount',
      summary: 'Delete the account with cooling-off',
      description:
        'Needs a sign-in within the last five minutes (403 reauth_required). The account is erased when the cooling-off ends (`deletion_due_at`; 14 days by default, see GET /v1/capabilities) unless cancelled. An owner whose organisation has other members must transfer ownership or remove them first (409 organisation_has_members). At once: the organisation’s profiles are tombstoned and every session (this one too), API token and node is revoked; the session cookie is cleared. To cancel, sign in again (POST /v1/auth/login): that session may read, undelete (POST /v1/auth/me/undelete) and log out; other writes answer 403 account_pending_deletion.',
      tags: ['auth'],
      auth: 'session',
      errorStatuses: [409],
      responses: {
        202: {
          description:
            'Deletion pending: deletion_requested_at and deletion_due_at set; this session is revoked and its cookie cleared.',
          schema: AccountEnvelope,
          headers: {
            'Set-Cookie': { description: 'Clears the session cookie.', schema: { type: 'string' } },
          },
        },
      },
      handler: async ({ principal }) => {
        const { session, account } = actingSession(principal);
        sessions.assertStepUp(session);
        await organisations.assertMayDeleteAccount(account.id);
        const pending = await deletion.request(account);
        tokensRevoked(account.id);
        return {
          status: 202,
          body: { account: pending },
          headers: { 'Set-Cookie': clearedSessionCookie(secureCookies) },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/me/undelete',
      operationId: 'undeleteCurrentAccount',
      summary: 'Cancel a pending account deletion',
      description:
        'Restores and republishes the profiles; sessions and tokens revoked by the deletion stay revoked. Emails the owner and audits `account.deletion_canceled`.',
      tags: ['auth'],
      auth: 'session',
      allowPendingDeletion: true,
      errorStatuses: [409],
      responses: { 200: { description: 'The account is active again.', schema: AccountStatus } },
      handler: async ({ principal, clientIp, requestId }) => {
        const { account } = actingSession(principal);
        const actor = principal?.actor ?? `account:${account.id}`;
        return { status: 200, body: await deletion.cancel(account, { actor, clientIp, requestId }) };
      },
    }),
  ];
}
