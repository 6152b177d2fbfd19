import type { RecoveryCodes, RecoveryCodesRemaining } from '../../second-factor.types.js';
import type { Transport } from '../../transport.js';

/** Single-use recovery codes of an account with a second factor, `/v1/auth/recovery-codes`; session only. */
export class RecoveryCodesResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/recovery-codes: how many unused codes remain. */
  async remaining(): Promise<number> {
    return (
      await this.transport.send<RecoveryCodesRemaining>({ method: 'GET', path: '/v1/auth/recovery-codes' })
    ).data.remaining;
  }

  /**
   * POST /v1/auth/recovery-codes: ten new codes, shown this once; the old ones stop working. Needs a sign-in
   * within five minutes (403 `reauth_required`); 409 `no_second_factor` without one.
   */
  async replace(): Promise<string[]> {
    return (await this.transport.send<RecoveryCodes>({ method: 'POST', path: '/v1/auth/recovery-codes' }))
      .data.recovery_codes;
  }
}
