import {
  AccountEnvelope,
  EmailRequest,
  RecoveryCodes,
  RecoveryCodesRemaining,
  RecoveryConfirmRequest,
  RecoverySent,
  type SecondFactorService,
  TotpCode,
  TotpDisabled,
  TotpEnabled,
  TotpEnrolment,
  TotpStatus,
} from '@svc/domain';
import { clientNetworkOf } from '../http/client-network.js';
import { sessionCookie } from '../http/session-cookie.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

const STEP_UP = 'Needs a sign-in within the last five minutes (403 reauth_required).';

/** TOTP, recovery codes and account recovery (ROUTES.md "Second factors", "Sign-in and account"). */
export function secondFactorRoutes(factors: SecondFactorService, secureCookies: boolean): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/totp',
      operationId: 'getTotpStatus',
      summary: 'Whether the authenticator app is on',
      description: 'A started enrolment that was never confirmed is off.',
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      responses: { 200: { description: 'The authenticator app’s state.', schema: TotpStatus } },
      handler: async ({ principal }) => ({
        status: 200,
        body: await factors.totpStatus(actingSession(principal).account.id),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/totp',
      operationId: 'startTotpEnrolment',
      summary: 'Start TOTP enrolment',
      description: `${STEP_UP} An account whose address is not verified is 403 email_unverified. Confirm with POST /v1/auth/totp/confirm.`,
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      errorStatuses: [409],
      responses: { 200: { description: 'The secret and its otpauth URI.', schema: TotpEnrolment } },
      handler: async ({ principal }) => {
        const { session, account } = actingSession(principal);
        return { status: 200, body: await factors.startTotp(session, account) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/totp/confirm',
      operationId: 'confirmTotpEnrolment',
      summary: 'Turn TOTP on with a first valid code',
      description: 'Ten single-use recovery codes come with the first second factor, shown this once.',
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      request: { body: TotpCode },
      errorStatuses: [401, 409, 429],
      responses: { 200: { description: 'TOTP is on.', schema: TotpEnabled } },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const { session, account } = actingSession(principal);
        const source = auditSourceOf({ principal, clientIp, requestId });
        return { status: 200, body: await factors.confirmTotp(session, account, body.code, source) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/totp/disable',
      operationId: 'disableTotp',
      summary: 'Turn TOTP off',
      description: STEP_UP,
      tags: ['second factors'],
      auth: 'session',
      request: { body: TotpCode },
      errorStatuses: [401, 409, 429],
      responses: { 200: { description: 'TOTP is off.', schema: TotpDisabled } },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const { session, account } = actingSession(principal);
        const source = auditSourceOf({ principal, clientIp, requestId });
        return { status: 200, body: await factors.disableTotp(session, account, body.code, source) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/recovery-codes',
      operationId: 'countRecoveryCodes',
      summary: 'Recovery codes remaining',
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      responses: { 200: { description: 'Unused codes.', schema: RecoveryCodesRemaining } },
      handler: async ({ principal }) => ({
        status: 200,
        body: { remaining: await factors.remainingRecoveryCodes(actingSession(principal).account.id) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/recovery-codes',
      operationId: 'replaceRecoveryCodes',
      summary: 'Replace the recovery codes',
      description: `${STEP_UP} The old codes stop working.`,
      tags: ['second factors'],
      auth: 'session',
      errorStatuses: [409],
      responses: { 200: { description: 'Ten new codes, shown this once.', schema: RecoveryCodes } },
      handler: async ({ principal, clientIp, requestId }) => {
        const { session, account } = actingSession(principal);
        const source = auditSourceOf({ principal, clientIp, requestId });
        return {
          status: 200,
          body: { recovery_codes: await factors.replaceRecoveryCodes(session, account, source) },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/recovery',
      operationId: 'requestAccountRecovery',
      summary: 'Email an account recovery link',
      description:
        'Always 202, whether or not the address has an account; 429 rate_limited when the requesting client (an IPv4 address, or an IPv6 /64) asked too often. Beyond the per-address limit no new mail is sent while an earlier link still works.',
      tags: ['second factors'],
      auth: 'none',
      request: { body: EmailRequest },
      responses: {
        202: { description: 'Recovery link queued when the account exists.', schema: RecoverySent },
      },
      handler: async ({ body, clientIp }) => {
        await factors.requestRecovery(body.email, clientNetworkOf(clientIp));
        return { status: 202, body: { status: 'recovery_sent' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/recovery/confirm',
      operationId: 'confirmAccountRecovery',
      summary: 'Recover with the emailed token and a recovery code',
      description:
        'Signs in to a restricted session that must set up a second factor again: every other route answers 403 mfa_enrolment_required until then. A wrong code is 401 invalid_recovery_code.',
      tags: ['second factors'],
      auth: 'none',
      request: { body: RecoveryConfirmRequest },
      errorStatuses: [401],
      responses: {
        200: {
          description: 'Signed in (restricted).',
          schema: AccountEnvelope,
          headers: { 'Set-Cookie': { description: 'The session cookie.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ body, clientIp, headers, requestId }) => {
        const issued = await factors.confirmRecovery(body.token, body.recovery_code, {
          ip: clientIp,
          userAgent: String(headers['user-agent'] ?? ''),
          requestId,
        });
        return {
          status: 200,
          body: { account: issued.account },
          headers: { 'Set-Cookie': sessionCookie(issued.token, issued.expiresAt, secureCookies) },
        };
      },
    }),
  ];
}
