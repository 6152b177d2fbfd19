import type { ConfirmationSent, WaitlistConfirmed } from '../identity.types.js';
import type { Transport } from '../transport.js';

/** The waitlist offered while signup is not open, `/v1/waitlist` (ROUTES.md "Sign-in and account"). */
export class WaitlistResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/waitlist: emails a confirmation link; the same answer whether or not the address is known. */
  async join(email: string): Promise<ConfirmationSent> {
    return (
      await this.transport.send<ConfirmationSent>({
        method: 'POST',
        path: '/v1/waitlist',
        anonymous: true,
        body: { email },
      })
    ).data;
  }

  /**
   * GET /v1/waitlist/confirm with the emailed link's token. Throws ApiError 400 `invalid_token`,
   * `token_expired` or `token_used`.
   */
  async confirm(token: string): Promise<WaitlistConfirmed> {
    return (
      await this.transport.send<WaitlistConfirmed>({
        method: 'GET',
        path: '/v1/waitlist/confirm',
        anonymous: true,
        query: { token },
      })
    ).data;
  }
}
