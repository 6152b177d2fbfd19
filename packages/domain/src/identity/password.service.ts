import type { AuditSource } from '../audit/audit.ports.js';
import { passwordChangedMail, passwordResetMail } from '../mail/identity.mails.js';
import { DomainError, validationFailed } from '../shared/domain-error.js';
import { normaliseEmail } from './account-view.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { SessionRow } from './identity.records.js';
import type { PasswordChangeRequest } from './identity.schemas.js';
import { AttemptLimits, IdentityLimits } from './identity.settings.js';
import { consumeOneTimeToken } from './one-time-tokens.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';

/** Password change, reset request and reset confirmation (spec 4.8, ROUTES.md). */
export class PasswordService {
  constructor(private readonly deps: IdentityDependencies) {}

  /**
   * POST /v1/auth/password from a session: proves the current password (or, for a passkey-only account, a
   * recent sign-in), stores the new hash, signs out every other session and emails a notice.
   */
  async change(session: SessionRow, request: PasswordChangeRequest, source?: AuditSource): Promise<number> {
    await this.deps.limiter.consume(AttemptLimits.passwordChangePerAccount, session.accountId);
    const account = await this.deps.store.accounts.findById(session.accountId);
    if (account === null) throw new DomainError('unauthenticated', 'The session has ended.');
    if (account.passwordHash === null) {
      const now = this.deps.clock.now().getTime();
      if (now - session.createdAt.getTime() > IdentityLimits.stepUpWindowMs) {
        throw new DomainError('reauth_required', 'Sign in again to set a password (within five minutes).');
      }
    } else {
      if (request.current_password === undefined) {
        throw validationFailed([{ field: 'current_password', message: 'is required' }]);
      }
      if (!(await this.deps.hasher.verify(account.passwordHash, request.current_password))) {
        throw new DomainError('invalid_credentials', 'The current password is not right.');
      }
    }
    const newHash = await this.deps.hasher.hash(request.new_password);
    const now = this.deps.clock.now();
    const dashboard = this.deps.settings.dashboardUrl;
    return this.deps.uow.run(async (tx) => {
      await tx.identity.accounts.setPasswordHash(account.id, newHash);
      const revoked = await tx.identity.sessions.revokeAllExcept(account.id, session.id, now);
      if (source !== undefined) {
        await tx.audit.record({
          ...source,
          orgId: account.orgId,
          action: 'account.password_changed',
          target: `accounts/${account.id}`,
          details: { via: 'change', sessions_revoked: revoked },
          at: now,
        });
      }
      await tx.mail.enqueue(
        passwordChangedMail(account.email, {
          security: `${dashboard}/account/security`,
          reset: `${dashboard}/reset-password`,
        }),
      );
      return revoked;
    });
  }

  /**
   * POST /v1/auth/password/reset: emails a one-hour link when the address has an account. The answer is the
   * same either way; the per-address and per-IP limits apply to every address alike.
   */
  async requestReset(rawEmail: string, clientIp: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    await this.deps.limiter.consume(AttemptLimits.resetPerIp, clientIp);
    await this.deps.limiter.consume(AttemptLimits.resetPerAddress, email);
    const account = await this.deps.store.accounts.findByEmail(email);
    if (account === null) return;
    const now = this.deps.clock.now();
    const token = newOpaqueToken(this.deps.random, 'rst_');
    await this.deps.uow.run(async (tx) => {
      await tx.identity.oneTimeTokens.create({
        purpose: 'reset',
        hash: this.deps.keyedHash.mac(SecretPurpose.oneTime, token),
        accountId: account.id,
        email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IdentityLimits.resetTtlMs),
        usedAt: null,
      });
      await tx.mail.enqueue(
        passwordResetMail(
          email,
          `${this.deps.settings.dashboardUrl}/reset-password?token=${encodeURIComponent(token)}`,
        ),
      );
    });
  }

  /** POST /v1/auth/password/reset/confirm: sets the new password and signs out every session. */
  async confirmReset(
    token: string,
    newPassword: string,
    source?: Omit<AuditSource, 'actor'>,
  ): Promise<number> {
    const newHash = await this.deps.hasher.hash(newPassword);
    const now = this.deps.clock.now();
    const hash = this.deps.keyedHash.mac(SecretPurpose.oneTime, token);
    const dashboard = this.deps.settings.dashboardUrl;
    return this.deps.uow.run(async (tx) => {
      const record = await consumeOneTimeToken(tx.identity, 'reset', hash, now);
      const account =
        record.accountId === null ? null : await tx.identity.accounts.findById(record.accountId);
      if (account === null) throw new DomainError('invalid_token', 'This link is not valid.');
      await tx.identity.accounts.setPasswordHash(account.id, newHash);
      // Proving control of the mailbox also proves the address.
      await tx.identity.accounts.markEmailVerified(account.id, now);
      await tx.identity.oneTimeTokens.expireUnused('reset', account.email, now);
      const revoked = await tx.identity.sessions.revokeAllExcept(account.id, null, now);
      if (source !== undefined) {
        await tx.audit.record({
          ...source,
          actor: `account:${account.id}`,
          orgId: account.orgId,
          action: 'account.password_changed',
          target: `accounts/${account.id}`,
          details: { via: 'reset', sessions_revoked: revoked },
          at: now,
        });
      }
      await tx.mail.enqueue(
        passwordChangedMail(account.email, {
          security: `${dashboard}/account/security`,
          reset: `${dashboard}/reset-password`,
        }),
      );
      return revoked;
    });
  }
}
