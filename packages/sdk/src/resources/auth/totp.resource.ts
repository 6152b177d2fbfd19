import type { TotpDisabled, TotpEnabled, TotpEnrolment, TotpStatus } from '../../second-factor.types.js';
import type { Transport } from '../../transport.js';

/**
 * The authenticator-app second factor, `/v1/auth/totp` (spec 5.4; ROUTES.md "Second factors"). Session only;
 * starting and turning it off need a sign-in within the last five minutes (403 `reauth_required`).
 */
export class TotpResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/totp: whether the authenticator app is on; an enrolment started but not confirmed is off. */
  async status(): Promise<TotpStatus> {
    return (await this.transport.send<TotpStatus>({ method: 'GET', path: '/v1/auth/totp' })).data;
  }

  /**
   * POST /v1/auth/totp: a new secret and its `otpauth://` URI for a QR code; TOTP is on only after
   * {@link confirm}. Throws ApiError 409 `totp_already_enabled`, 403 `email_unverified` until the account's
   * address is verified.
   */
  async start(): Promise<TotpEnrolment> {
    return (await this.transport.send<TotpEnrolment>({ method: 'POST', path: '/v1/auth/totp' })).data;
  }

  /**
   * POST /v1/auth/totp/confirm with the 6 digits the app shows: turns TOTP on. The first second factor of the
   * account comes with ten recovery codes, shown this once. Throws ApiError 401 `invalid_second_factor`.
   */
  async confirm(code: string): Promise<TotpEnabled> {
    return (
      await this.transport.send<TotpEnabled>({
        method: 'POST',
        path: '/v1/auth/totp/confirm',
        body: { code },
      })
    ).data;
  }

  /** POST /v1/auth/totp/disable with a current code: turns TOTP off. Throws ApiError 409 `totp_not_enabled`. */
  async disable(code: string): Promise<TotpDisabled> {
    return (
      await this.transport.send<TotpDisabled>({
        method: 'POST',
        path: '/v1/auth/totp/disable',
        body: { code },
      })
    ).data;
  }
}
