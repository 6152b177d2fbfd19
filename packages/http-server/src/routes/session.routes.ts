import {
  AccountEnvelope,
  LoginRequest,
  RevokedCount,
  SessionList,
  type SessionService,
  SignInStatus,
} from '@svc/domain';
import { z } from 'zod';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from '../http/session-cookie.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession, currentAccountView } from './route-principal.js';

/** Password sign-in, the current account and session management (ROUTES.md "Sign-in and account"). */
export function sessionRoutes(sessions: SessionService, secureCookies: boolean): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/login',
      operationId: 'login',
      summary: 'Sign in with email and password',
      description:
        'Sets the `svc_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure outside development). Attempts for one address or account run one at a time, and after a failure the next may come only 100 ms later, doubling with each failure up to 5 s: an attempt sooner, or while another runs, is 429 rate_limited with Retry-After. Wrong authenticator codes count alike, and ten of them lock the second-factor step for 15 minutes (429).',
      tags: ['auth'],
      auth: 'none',
      request: { body: LoginRequest },
      errorStatuses: [401],
      responses: {
        200: {
          description: 'Signed in.',
          schema: AccountEnvelope,
          headers: { 'Set-Cookie': { description: 'The session cookie.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ body, clientIp, headers, requestId }) => {
        const issued = await sessions.login(body, {
          ip: clientIp,
          userAgent: String(headers['user-agent'] ?? ''),
          requestId,
          replacing: sessionTokenOf(typeof headers.cookie === 'string' ? headers.cookie : undefined),
        });
        return {
          status: 200,
          body: { account: issued.account },
          headers: { 'Set-Cookie': sessionCookie(issued.token, issued.expiresAt, secureCookies) },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/logout',
      operationId: 'logout',
      summary: 'End the current session',
      tags: ['auth'],
      auth: 'session',
      allowRestricted: true,
      allowPendingDeletion: true,
      responses: { 204: { description: 'Signed out; the cookie is cleared.' } },
      handler: async ({ principal }) => {
        const { session } = actingSession(principal);
        await sessions.logout(session.accountId, session.id);
        return { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(secureCookies) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/me',
      operationId: 'getCurrentAccount',
      summary: 'The current account',
      tags: ['auth'],
      auth: 'account',
      allowRestricted: true,
      scope: 'account:read',
      responses: { 200: { description: 'The account (spec 2.1).', schema: AccountEnvelope } },
      handler: async ({ principal }) => ({
        status: 200,
        body: { account: currentAccountView(principal) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/status',
      operationId: 'getSignInStatus',
      summary: 'Whether this browser is signed in',
      description:
        'Answers 200 with or without a session cookie: the account of a live session, or `account: null` when no cookie is sent or its session has ended. A signed-out browser asking is not an error, so the dashboard learns it without a failed request (GET /v1/auth/me answers 401). API tokens are not sessions: they read their account with GET /v1/auth/me.',
      tags: ['auth'],
      auth: 'none',
      responses: { 200: { description: 'The sign-in status.', schema: SignInStatus } },
      handler: async ({ principal }) => ({
        status: 200,
        body: {
          account:
            principal?.kind === 'session' && principal.account !== null
              ? currentAccountView(principal)
              : null,
        } satisfies SignInStatus,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/sessions',
      operationId: 'listSessions',
      summary: 'Signed-in sessions',
      tags: ['auth'],
      auth: 'session',
      responses: { 200: { description: 'Live sessions, newest first.', schema: SessionList } },
      handler: async ({ principal }) => {
        const { session } = actingSession(principal);
        return { status: 200, body: { sessions: await sessions.list(session.accountId, session.id) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/auth/sessions',
      operationId: 'revokeOtherSessions',
      summary: 'Sign out every other session',
      tags: ['auth'],
      auth: 'session',
      responses: { 200: { description: 'How many sessions were signed out.', schema: RevokedCount } },
      handler: async ({ principal }) => {
        const { session } = actingSession(principal);
        return { status: 200, body: { revoked: await sessions.revokeOthers(session.accountId, session.id) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/auth/sessions/{id}',
      operationId: 'revokeSession',
      summary: 'Sign out one session',
      tags: ['auth'],
      auth: 'session',
      request: { params: z.object({ id: z.uuid('must be a uuid') }) },
      responses: { 204: { description: 'Signed out.' } },
      handler: async ({ principal, params }) => {
        const { session } = actingSession(principal);
        await sessions.revokeOne(session.accountId, params.id);
        return {
          status: 204,
          ...(params.id === session.id
            ? { headers: { 'Set-Cookie': clearedSessionCookie(secureCookies) } }
            : {}),
        };
      },
    }),
  ];
}
