import {
  EmailRequest,
  PasswordChangeRequest,
  PasswordResetConfirmRequest,
  type PasswordService,
  ResetSent,
  RevokedCount,
} from '@svc/domain';
import { clientNetworkOf } from '../http/client-network.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

/** Password change and reset (spec 4.8, ROUTES.md). */
export function passwordRoutes(
  passwords: PasswordService,
  credentialsEnded: (accountId: string) => void,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/password',
      operationId: 'changePassword',
      summary: 'Change the password',
      description:
        'Needs `current_password` when the account has one; a passkey-only account needs a sign-in within the last five minutes instead. Every other session is signed out and a notice is emailed.',
      tags: ['auth'],
      auth: 'session',
      request: { body: PasswordChangeRequest },
      errorStatuses: [429],
      responses: { 200: { description: 'Other sessions signed out.', schema: RevokedCount } },
      handler: async (context) => {
        const { session } = actingSession(context.principal);
        return {
          status: 200,
          body: { revoked: await passwords.change(session, context.body, auditSourceOf(context)) },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/password/reset',
      operationId: 'requestPasswordReset',
      summary: 'Email a password reset link',
      description:
        'Always 202 `reset_sent`, whether or not an account exists; 429 rate_limited when the requesting client (an IPv4 address, or an IPv6 /64) asked too often. Per address one mail a minute (burst 3): beyond that no new mail is sent while an earlier link to the address still works, and one is sent when none does, so nobody can keep an address’s owner from getting a working link. The notice sent after the reset lists the account’s API tokens still active.',
      tags: ['auth'],
      auth: 'none',
      request: { body: EmailRequest },
      responses: { 202: { description: 'Reset link queued when the account exists.', schema: ResetSent } },
      handler: async ({ body, clientIp }) => {
        await passwords.requestReset(body.email, clientNetworkOf(clientIp));
        return { status: 202, body: { status: 'reset_sent' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/password/reset/confirm',
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with the emailed reset token',
      tags: ['auth'],
      auth: 'none',
      request: { body: PasswordResetConfirmRequest },
      responses: { 200: { description: 'Password set; every session signed out.', schema: RevokedCount } },
      handler: async ({ body, clientIp, requestId }) => {
        const reset = await passwords.confirmReset(body.token, body.new_password, { clientIp, requestId });
        // A first verification by reset revokes the account's API tokens, which this server may have cached.
        credentialsEnded(reset.accountId);
        return { status: 200, body: { revoked: reset.revoked } };
      },
    }),
  ];
}
