import type { Account } from '@svc/domain';
import type {
  AccountDeletionCancelOnBehalfRequest,
  AccountDeletionOnBehalfRequest,
} from '../../admin.types.js';
import type { Transport } from '../../transport.js';

/** Accounts on their owners' behalf, `/v1/admin/accounts/{id}/deletion` (scope admin, spec 3, 4.10). */
export class AdminAccountsResource {
  constructor(private readonly transport: Transport) {}

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
