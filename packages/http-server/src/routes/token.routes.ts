import { type ApiTokenService, PageQuery, TokenCreate, TokenCreated, TokenList } from '@svc/domain';
import { z } from 'zod';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingOrgId, actingSession } from './route-principal.js';

/** API tokens (spec 4.9, 5.3). */
export function tokenRoutes(tokens: ApiTokenService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/tokens',
      operationId: 'listTokens',
      summary: 'The account’s API tokens',
      tags: ['tokens'],
      auth: 'account',
      scope: 'account:read',
      request: { query: PageQuery },
      responses: {
        200: { description: 'Live tokens, newest first; never their secrets.', schema: TokenList },
      },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await tokens.list(actingAccount(principal).id, query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/tokens',
      operationId: 'createToken',
      summary: 'Create an API token',
      description:
        'Session only: a token cannot create another token. A credential change: needs a sign-in within the last five minutes (403 reauth_required) and a verified address (403 email_unverified). The secret (`svc_` and 52 characters) is in this answer only, and in the replay of this request with the same Idempotency-Key within 24 hours (kept sealed with the server key meanwhile), to the same session only, and within its step-up window: another session reusing the key is 409 idempotency_key_reused. The admin scope is for operator accounts, and outside development needs a sign-in with a second factor or a passkey.',
      tags: ['tokens'],
      auth: 'session',
      idempotent: true,
      stepUp: true,
      answersSecret: true,
      request: { body: TokenCreate },
      responses: {
        201: {
          description: 'The token record and its secret, shown once.',
          schema: TokenCreated,
          headers: { Location: { description: 'The token’s address.', schema: { type: 'string' } } },
        },
      },
      handler: async (context) => {
        const { session } = actingSession(context.principal);
        const created = await tokens.create(
          session,
          context.body,
          auditSourceOf(context),
          actingOrgId(context.principal),
        );
        return { status: 201, body: created, headers: { Location: `/v1/tokens/${created.token.id}` } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/tokens/{id}',
      operationId: 'revokeToken',
      summary: 'Revoke an API token',
      tags: ['tokens'],
      auth: 'session',
      request: { params: z.object({ id: z.uuid('must be a uuid') }) },
      responses: { 204: { description: 'Revoked.' } },
      handler: async (context) => {
        const { account } = actingSession(context.principal);
        await tokens.revoke(account.id, context.params.id, {
          ...auditSourceOf(context),
          orgId: context.principal?.orgId ?? account.orgId,
        });
        return { status: 204 };
      },
    }),
  ];
}
