import type {
  Account,
  AuthenticationResponseJson,
  Passkey,
  PasskeyCreationOptions,
  PasskeyRegistered,
  PasskeyRequestOptions,
  RegistrationResponseJson,
} from '@svc/domain';
import type { Transport } from '../../transport.js';

/**
 * Passkeys (WebAuthn), `/v1/auth/passkeys`. The options are the JSON form a browser passes to
 * `navigator.credentials.create()` / `.get()` (for example through @simplewebauthn/browser); the SDK only
 * carries them and the authenticator's response. Management calls are session only.
 */
export class PasskeysResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/passkeys. */
  async list(): Promise<Passkey[]> {
    return (await this.transport.send<{ passkeys: Passkey[] }>({ method: 'GET', path: '/v1/auth/passkeys' }))
      .data.passkeys;
  }

  /** PATCH /v1/auth/passkeys/{id}: renames a passkey. */
  async rename(id: string, name: string): Promise<Passkey> {
    return (
      await this.transport.send<Passkey>({
        method: 'PATCH',
        path: `/v1/auth/passkeys/${encodeURIComponent(id)}`,
        body: { name },
      })
    ).data;
  }

  /** DELETE /v1/auth/passkeys/{id} (step-up); 409 `last_credential` for the account's last way to sign in. */
  async delete(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/auth/passkeys/${encodeURIComponent(id)}` });
  }

  /**
   * POST /v1/auth/passkeys/registration/options (step-up): creation options for the browser. Throws ApiError
   * 403 `email_unverified` until the account's address is verified.
   */
  async registrationOptions(): Promise<PasskeyCreationOptions> {
    return (
      await this.transport.send<PasskeyCreationOptions>({
        method: 'POST',
        path: '/v1/auth/passkeys/registration/options',
      })
    ).data;
  }

  /** POST /v1/auth/passkeys/registration: stores the new passkey; recovery codes come with a first factor. */
  async register(response: RegistrationResponseJson, name?: string): Promise<PasskeyRegistered> {
    return (
      await this.transport.send<PasskeyRegistered>({
        method: 'POST',
        path: '/v1/auth/passkeys/registration',
        body: { response, ...(name === undefined ? {} : { name }) },
      })
    ).data;
  }

  /** POST /v1/auth/passkeys/authentication/options: request options; without email, discoverable credentials. */
  async authenticationOptions(email?: string): Promise<PasskeyRequestOptions> {
    return (
      await this.transport.send<PasskeyRequestOptions>({
        method: 'POST',
        path: '/v1/auth/passkeys/authentication/options',
        anonymous: true,
        body: email === undefined ? {} : { email },
      })
    ).data;
  }

  /** POST /v1/auth/passkeys/authentication: signs in; the client keeps the session cookie, as login does. */
  async authenticate(response: AuthenticationResponseJson): Promise<Account> {
    return (
      await this.transport.send<{ account: Account }>({
        method: 'POST',
        path: '/v1/auth/passkeys/authentication',
        anonymous: true,
        body: { response },
      })
    ).data.account;
  }
}
