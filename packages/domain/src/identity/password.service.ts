import type { AuditSource } from '../audit/audit.ports.js';
import { passwordChangedMail, passwordResetMail, passwordResetNoticeMail } from '../mail/identity.mails.js';
import { DomainError, validationFailed } from '../shared/domain-error.js';
import { endCredentialsOfUnverifiedPast } from './email-verification.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { SessionRow } from './identity.records.js';
import type { PasswordChangeRequest } from './identity.schemas.js';
import { AttemptLimits, IdentityLimits } from './identity.settings.js';
import type { PasswordScope } from './identity-transaction.ports.js';
import { type MailedLink, mailOneTimeLink } from './mailed-link-limit.js';
import { consumeOneTimeToken } from './one-time-tokens.js';
import { SecretPurpose } from './secrets.js';

/** The one-hour password reset link (spec 4.8). */
const RESET_LINK: MailedLink = {
  purpose: 'reset',
  tokenPrefix: 'rst_',
  addressLimit: AttemptLimits.resetPerAddress,
  ttlMs: IdentityLimits.resetTtlMs,
  mail: (email, token, dashboardUrl) =>
    passwordResetMail(email, `${dashboardUrl}/reset-password?token=${encodeURIComponent(token)}`),
};

/** At most this many active tokens are read for a reset notice (it names the first few and counts the rest). */
const LISTED_TOKENS_READ = 1_000;

/** Password change, reset request and reset confirmation (spec 4.8, ROUTES.md). */
export class PasswordService {
  constructor(private readonly deps: IdentityDependencies<PasswordScope>) {}

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
   * same either way. The requesting client's network is limited (429 rate_limited: its own budget, whatever
   * the address); the address's limit only stops new mail while an earlier link still works (see
   * {@link linkStillOwed}), so a stranger asking for links cannot block the owner's reset.
   */
  async requestReset(rawEmail: string, clientNetwork: string): Promise<void> {
    await mailOneTimeLink(this.deps, RESET_LINK, rawEmail, clientNetwork);
  }

  /**
   * POST /v1/auth/password/reset/confirm: sets the new password and signs out every session. API tokens live
   * on, so the notice lists those still active with a link to review them. A reset proves the mailbox: if
   * it is the address's first verification, every credential made before it ends as well.
   */
  async confirmReset(
    token: string,
    newPassword: string,
    source?: Omit<AuditSource, 'actor'>,
  ): Promise<{ revoked: number; accountId: string }> {
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
      const revoked = await tx.identity.sessions.revokeAllExcept(account.id, null, now);
      // Proving control of the mailbox also proves the address.
      if (await tx.identity.accounts.markEmailVerified(account.id, now)) {
        await endCredentialsOfUnverifiedPast(tx, account, now, this.deps.keyedHash);
      }
      await tx.identity.oneTimeTokens.expireUnused('reset', account.email, now);
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
      const tokens = await tx.identity.apiTokens.listByAccount(account.id, {
        limit: LISTED_TOKENS_READ,
        after: null,
      });
      await tx.mail.enqueue(
        passwordResetNoticeMail(
          account.email,
          tokens.filter((token) => token.expiresAt === null || token.expiresAt.getTime() > now.getTime()),
          { security: `${dashboard}/account/security`, reset: `${dashboard}/reset-password` },
        ),
      );
      return { revoked, accountId: account.id };
    });
  }
}
