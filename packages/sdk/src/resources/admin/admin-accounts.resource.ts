import type { Account, OperatorAccountMatch } from '@svc/domain';
import type {
  AccountDeletionCancelOnBehalfRequest,
  AccountDeletionOnBehalfRequest,
} from '../../admin.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { Transport } from '../../transport.js';

/**
 * Accounts of every organisation: found with `/v1/admin/accounts?q=`, deleted on their owners' behalf with
 * `/v1/admin/accounts/{id}/deletion` (scope admin, spec 3, 4.10).
 */
export class AdminAccountsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/admin/accounts?q=: accounts whose email contains `query` (case-insensitive) or whose id or
   * organisation id is `query`, newest first, auto-paging. Throws ApiError 422 for an empty or over-long query.
   */
  search(query: string, options: { limit?: number } = {}): Paginator<OperatorAccountMatch> {
    return listPages<OperatorAccountMatch>(this.transport, '/v1/admin/accounts', 'accounts', {
      q: query,
      limit: options.limit,
    });
  }

  /**
   * POST …/deletion `{reason, ticket?}`: starts the deletion with cooling-off; the account with its
   * deletion_due_at. Throws ApiError 409 `deletion_pending` when one is pending already.
   */
  async delete(id: string, request: AccountDeletionOnBehalfRequest): Promise<Account> {
    return (
      await this.transport.send<{ account: Account }>({
        method: 'POST',
        path: deletionPath(id),
        body: request,
      })
    ).data.account;
  }

  /**
   * DELETE …/deletion `{reason?, ticket?}`: cancels a pending deletion as the owner's undelete does. Throws
   * ApiError 409 `no_deletion_pending` or `deletion_started`.
   */
  async undelete(
    id: string,
    request: AccountDeletionCancelOnBehalfRequest = {},
  ): Promise<{ status: 'active' }> {
    return (
      await this.transport.send<{ status: 'active' }>({
        method: 'DELETE',
        path: deletionPath(id),
        body: request,
      })
    ).data;
  }
}

function deletionPath(id: string): string {
  return `/v1/admin/accounts/${encodeURIComponent(id)}/deletion`;
}
