import type { Account, AccountEnvelope } from '@svc/domain';
import type { RecoveryConfirmRequest, RecoverySent } from '../../second-factor.types.js';
import type { Transport } from '../../transport.js';

/**
 * Account recovery when the second factor is lost, `/v1/auth/recovery` (spec 5.5.3): an emailed `rec_…` link
 * plus one recovery code sign in to a restricted session that must set up a second factor again. Public calls,
 * sent without the client's credentials.
 */
export class RecoveryResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/auth/recovery: emails a recovery link when the account exists; the same answer either way. */
  async request(email: string): Promise<RecoverySent> {
    return (
      await this.transport.send<RecoverySent>({
        method: 'POST',
        path: '/v1/auth/recovery',
        anonymous: true,
        body: { email },
      })
    ).data;
  }

  /**
   * POST /v1/auth/recovery/confirm: signs in like `auth.login()`, keeping the session cookie, to a restricted
   * session: every other call answers 403 `mfa_enrolment_required` until `auth.totp` is set up again. Throws
   * ApiError 401 `invalid_recovery_code`, 400 `invalid_token`, `token_expired` or `token_used`.
   */
  async confirm(request: RecoveryConfirmRequest): Promise<Account> {
    return (
      await this.transport.send<AccountEnvelope>({
        method: 'POST',
        path: '/v1/auth/recovery/confirm',
        anonymous: true,
        body: request,
      })
    ).data.account;
  }
}
