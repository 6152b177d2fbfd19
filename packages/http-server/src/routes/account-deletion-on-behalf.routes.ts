import {
  AccountDeletionCancelOnBehalf,
  AccountDeletionOnBehalf,
  type AccountDeletionService,
  AccountEnvelope,
  type AccountRecord,
  type IdentityStore,
  notFound,
} from '@svc/domain';
import { z } from 'zod';
import { AccountStatus } from './account-deletion.routes.js';
import { operatorActor } from './operator-actor.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Path of an account (its uuid). */
const AccountPath = z.object({ id: z.uuid({ error: 'must be an account id (uuid)' }) });

/**
 * Account deletion on an owner's behalf (spec 3, 4.10; ROUTES.md "Operator"), for owners who ask by email.
 * `tokensRevoked` drops the account's API tokens from this server's credential cache.
 */
export function accountDeletionOnBehalfRoutes(
  deletion: AccountDeletionService,
  identity: IdentityStore,
  tokensRevoked: (accountId: string) => void,
): AnyRoute[] {
  const accountOf = async (id: string): Promise<AccountRecord> => {
    const account = await identity.accounts.findById(id);
    if (account === null) throw notFound('account');
    return account;
  };
  return [
    defineRoute({
      method: 'post',
      path: '/v1/admin/accounts/{id}/deletion',
      operationId: 'deleteAccountOnBehalf',
      summary: 'Delete an account on its owner’s behalf',
      description:
        'Starts the deletion with cooling-off as the owner’s own request does: the organisation’s profiles are tombstoned, every session and API token revoked. The reason (required) and ticket are audited as `admin.deletion_requested` in the operator’s organisation. A deletion already pending is 409 deletion_pending.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: AccountPath, body: AccountDeletionOnBehalf },
      errorStatuses: [404, 409],
      responses: {
        202: { description: 'Deletion pending, with deletion_due_at.', schema: AccountEnvelope },
      },
      handler: async ({ principal, params, body, clientIp, requestId }) => {
        const account = await accountOf(params.id);
        const { orgId, ...source } = operatorActor(principal, { clientIp, requestId });
        const pending = await deletion.request(account, {
          orgId,
          source,
          reason: body.reason,
          ...(body.ticket === undefined ? {} : { ticket: body.ticket }),
        });
        tokensRevoked(account.id);
        return { status: 202, body: { account: pending } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/admin/accounts/{id}/deletion',
      operationId: 'cancelAccountDeletionOnBehalf',
      summary: 'Cancel a pending account deletion on its owner’s behalf',
      description:
        'Does what the owner’s undelete does (spec 3): profiles restored and republished, sessions and tokens stay revoked, the owner emailed with the ticket as reference. Audited as `account.deletion_canceled` in the account’s organisation and `admin.deletion_canceled` (with ticket and reason) in the operator’s. 409 no_deletion_pending or deletion_started.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: AccountPath, body: AccountDeletionCancelOnBehalf },
      errorStatuses: [404, 409],
      responses: { 200: { description: 'The account is active again.', schema: AccountStatus } },
      handler: async ({ principal, params, body, clientIp, requestId }) => {
        const account = await accountOf(params.id);
        const { orgId, ...source } = operatorActor(principal, { clientIp, requestId });
        const status = await deletion.cancel(account, source, {
          orgId,
          source,
          ...(body.reason === undefined ? {} : { reason: body.reason }),
          ...(body.ticket === undefined ? {} : { ticket: body.ticket }),
        });
        return { status: 200, body: status };
      },
    }),
  ];
}
