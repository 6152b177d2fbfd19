import type {
  Account,
  AccountEnvelope,
  LoginRequest,
  PasswordChangeRequest,
  SignInStatus,
  SignupMode,
  SignupRequest,
} from '@svc/domain';
import { ApiError } from '../../errors.js';
import type {
  PasswordResetConfirmRequest,
  ResetSent,
  RevokedCount,
  VerificationSent,
} from '../../identity.types.js';
import type { Transport } from '../../transport.js';
import { AuditResource } from './audit.resource.js';
import { ExportsResource } from './exports.resource.js';
import { OrganisationsResource } from './organisations.resource.js';
import { PasskeysResource } from './passkeys.resource.js';
import { PreferencesResource } from './preferences.resource.js';
import { RecoveryResource } from './recovery.resource.js';
import { RecoveryCodesResource } from './recovery-codes.resource.js';
import { SessionsResource } from './sessions.resource.js';
import { TotpResource } from './totp.resource.js';

/**
 * Signup, sign-in and the current account, `/v1/auth` (spec 4.8, 5.1–5.2; ROUTES.md "Sign-in and account").
 * Signing in keeps the session cookie in the client, so later calls act as the signed-in account. The public
 * calls (signup, verification, sign-in, password reset) go without the client's credentials, so that an
 * ended session or a revoked token does not stand in the way of signing in again.
 */
export class AuthResource {
  /** The account's signed-in sessions, `/v1/auth/sessions`. */
  readonly sessions: SessionsResource;
  /** The authenticator-app second factor, `/v1/auth/totp`. */
  readonly totp: TotpResource;
  /** Single-use recovery codes, `/v1/auth/recovery-codes`. */
  readonly recoveryCodes: RecoveryCodesResource;
  /** Passkeys (WebAuthn), `/v1/auth/passkeys`. */
  readonly passkeys: PasskeysResource;
  /** Account recovery with an emailed link and a recovery code, `/v1/auth/recovery`. */
  readonly recovery: RecoveryResource;
  /** Account preferences, `/v1/auth/me/preferences`. */
  readonly preferences: PreferencesResource;
  /** The organisation's audit log, `/v1/auth/audit`. */
  readonly audit: AuditResource;
  /** GDPR data exports of the account, `/v1/auth/me/exports`. */
  readonly exports: ExportsResource;
  /** The account's organisations and the one this session acts in, `/v1/auth/me/organisations`. */
  readonly organisations: OrganisationsResource;

  constructor(private readonly transport: Transport) {
    this.sessions = new SessionsResource(transport);
    this.totp = new TotpResource(transport);
    this.recoveryCodes = new RecoveryCodesResource(transport);
    this.passkeys = new PasskeysResource(transport);
    this.recovery = new RecoveryResource(transport);
    this.preferences = new PreferencesResource(transport);
    this.audit = new AuditResource(transport);
    this.exports = new ExportsResource(transport);
    this.organisations = new OrganisationsResource(transport);
  }

  /** GET /v1/auth/signup-mode: `open`, `invite` or `closed`, and whether a waitlist is offered. */
  async signupMode(): Promise<SignupMode> {
    return (
      await this.transport.send<SignupMode>({ method: 'GET', path: '/v1/auth/signup-mode', anonymous: true })
    ).data;
  }

  /**
   * POST /v1/auth/signup. Answers `verification_sent` whether or not the address is registered, so it cannot
   * tell who has an account; the account exists once the emailed link's token is passed to {@link verify}.
   * Throws ApiError 403 `signup_closed` / `invite_required`, 422 `password_too_short` / `password_too_long`
   * (field `password`) or `validation_failed`.
   */
  async signup(request: SignupRequest): Promise<VerificationSent> {
    return (
      await this.transport.send<VerificationSent>({
        method: 'POST',
        path: '/v1/auth/signup',
        anonymous: true,
        body: request,
      })
    ).data;
  }

  /**
   * POST /v1/auth/verify with the `ver_…` token of the emailed link. Throws ApiError 400 `invalid_token`,
   * `token_expired` (see {@link resendVerification}) or `token_used`.
   */
  async verify(token: string): Promise<Account> {
    return (
      await this.transport.send<AccountEnvelope>({
        method: 'POST',
        path: '/v1/auth/verify',
        anonymous: true,
        body: { token },
      })
    ).data.account;
  }

  /** POST /v1/auth/resend-verification: a new link; the same answer whether or not the address is known. */
  async resendVerification(email: string): Promise<VerificationSent> {
    return (
      await this.transport.send<VerificationSent>({
        method: 'POST',
        path: '/v1/auth/resend-verification',
        anonymous: true,
        body: { email },
      })
    ).data;
  }

  /**
   * POST /v1/auth/login. The client keeps the `svc_session` cookie it answers with and sends it from then on
   * (read it with `client.sessionCookie()` to resume later). Throws ApiError 401 `invalid_credentials`,
   * `second_factor_required` (pass `totp_code`) or `invalid_second_factor`.
   */
  async login(request: LoginRequest): Promise<Account> {
    return (
      await this.transport.send<AccountEnvelope>({
        method: 'POST',
        path: '/v1/auth/login',
        anonymous: true,
        body: request,
      })
    ).data.account;
  }

  /**
   * POST /v1/auth/logout: ends the session and forgets its cookie. A session that had already ended (401)
   * counts as signed out; a network failure keeps the cookie so that the call can be repeated.
   */
  async logout(): Promise<void> {
    try {
      await this.transport.send({ method: 'POST', path: '/v1/auth/logout' });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    this.transport.clearSession();
  }

  /** GET /v1/auth/me: the signed-in account, or the token's account (scope account:read). */
  async me(): Promise<Account> {
    return (await this.transport.send<AccountEnvelope>({ method: 'GET', path: '/v1/auth/me' })).data.account;
  }

  /**
   * GET /v1/auth/status: the account of this client's session, or `null` when it has none or it ended. Unlike
   * {@link me} it never answers 401, so a browser can ask whether it is signed in without a failed request;
   * API tokens are not sessions (`null`): use {@link me} with them.
   */
  async status(): Promise<Account | null> {
    return (await this.transport.send<SignInStatus>({ method: 'GET', path: '/v1/auth/status' })).data.account;
  }

  /**
   * DELETE /v1/auth/me (session only, sign-in within five minutes): starts the deletion with cooling-off; the
   * account comes back with `deletion_due_at`. Every session ends with it, this one too: to cancel, `login`
   * again and `undelete`. Until the deletion is cancelled, a session may only read, undelete and log out.
   */
  async deleteAccount(): Promise<Account> {
    return (await this.transport.send<AccountEnvelope>({ method: 'DELETE', path: '/v1/auth/me' })).data
      .account;
  }

  /** POST /v1/auth/me/undelete (session only): cancels a pending deletion (409 no_deletion_pending, deletion_started). */
  async undelete(): Promise<{ status: 'active' }> {
    return (await this.transport.send<{ status: 'active' }>({ method: 'POST', path: '/v1/auth/me/undelete' }))
      .data;
  }

  /**
   * POST /v1/auth/password (session only): signs out every other session. `current_password` is required when
   * the account has a password; a passkey-only account needs a recent sign-in instead (403 reauth_required).
   */
  async changePassword(request: PasswordChangeRequest): Promise<RevokedCount> {
    return (
      await this.transport.send<RevokedCount>({ method: 'POST', path: '/v1/auth/password', body: request })
    ).data;
  }

  /** POST /v1/auth/password/reset: emails a `rst_…` link when the account exists; the same answer either way. */
  async requestPasswordReset(email: string): Promise<ResetSent> {
    return (
      await this.transport.send<ResetSent>({
        method: 'POST',
        path: '/v1/auth/password/reset',
        anonymous: true,
        body: { email },
      })
    ).data;
  }

  /**
   * POST /v1/auth/password/reset/confirm: sets the new password and signs out every session of the account.
   * Throws ApiError 400 `invalid_token`, `token_expired` or `token_used`.
   */
  async confirmPasswordReset(request: PasswordResetConfirmRequest): Promise<RevokedCount> {
    return (
      await this.transport.send<RevokedCount>({
        method: 'POST',
        path: '/v1/auth/password/reset/confirm',
        anonymous: true,
        body: request,
      })
    ).data;
  }
}
