import { accountExistsMail, verificationMail, waitlistConfirmationMail } from '../mail/identity.mails.js';
import { DomainError } from '../shared/domain-error.js';
import { accountView, normaliseEmail } from './account-view.js';
import { endCredentialsOfUnverifiedPast } from './email-verification.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { Account, SignupMode, SignupRequest } from './identity.schemas.js';
import { AttemptLimits, IdentityLimits, isAllowlisted } from './identity.settings.js';
import type { SignUpScope } from './identity-transaction.ports.js';
import { consumeOneTimeToken } from './one-time-tokens.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';

/**
 * Signup, email verification and the waitlist (spec 4.8, ROUTES.md). Answers never tell whether an address is
 * registered: both paths hash the password, write in one transaction and queue one email.
 */
export class SignupService {
  constructor(private readonly deps: IdentityDependencies<SignUpScope>) {}

  /** GET /v1/auth/signup-mode. */
  mode(): SignupMode {
    const mode = this.deps.settings.signupMode;
    return { mode, waitlist: mode !== 'open' };
  }

  /** POST /v1/auth/signup: queues a verification or an account-exists email. */
  async signup(request: SignupRequest): Promise<void> {
    const { settings, hasher, clock, uow } = this.deps;
    if (settings.signupMode === 'closed') {
      throw new DomainError('signup_closed', 'Signup is closed on this deployment; join the waitlist.');
    }
    const email = normaliseEmail(request.email);
    const passwordHash = await hasher.hash(request.password);
    const now = clock.now();
    await uow.run(async (tx) => {
      if (settings.signupMode === 'invite' && !isAllowlisted(email, settings.signupAllowlist)) {
        await this.takeInviteUse(tx, request.invite_code, now);
      }
      const existing = await tx.identity.accounts.findByEmail(email);
      if (existing === null) {
        const accountId = this.deps.random.uuid();
        const orgId = this.deps.random.uuid();
        const created = await tx.identity.accounts.createWithOrganisation(
          { id: orgId, name: email, createdAt: now },
          {
            id: accountId,
            orgId,
            role: 'owner',
            email,
            emailVerifiedAt: null,
            passwordHash,
            plan: 'free',
            mfa: false,
            isAdmin: false,
            createdAt: now,
            deletionRequestedAt: null,
            deletionDueAt: null,
          },
        );
        if (created) {
          await this.sendVerification(tx, accountId, email, now);
          return;
        }
      }
      const account = existing ?? (await tx.identity.accounts.findByEmail(email));
      if (account === null) return;
      const notBefore = new Date(now.getTime() - IdentityLimits.accountExistsMailEveryMs);
      if (await tx.identity.accounts.claimAccountExistsMail(account.id, now, notBefore)) {
        await tx.mail.enqueue(
          accountExistsMail(email, {
            login: `${settings.dashboardUrl}/login`,
            reset: `${settings.dashboardUrl}/reset-password`,
          }),
        );
      }
    });
  }

  /**
   * POST /v1/auth/verify: marks the address verified and answers the account. The first verification ends
   * every session and credential made before it (whoever made them had not proven the address): the owner
   * signs in again.
   */
  async verify(token: string): Promise<Account> {
    const now = this.deps.clock.now();
    const hash = this.deps.keyedHash.mac(SecretPurpose.oneTime, token);
    return this.deps.uow.run(async (tx) => {
      const record = await consumeOneTimeToken(tx.identity, 'verify', hash, now);
      const accountId = record.accountId;
      const account = accountId === null ? null : await tx.identity.accounts.findById(accountId);
      if (account === null) throw new DomainError('invalid_token', 'This link is not valid.');
      if (await tx.identity.accounts.markEmailVerified(account.id, now)) {
        await endCredentialsOfUnverifiedPast(tx, account, now, this.deps.keyedHash);
      }
      return accountView({ ...account, emailVerifiedAt: account.emailVerifiedAt ?? now });
    });
  }

  /** POST /v1/auth/resend-verification: a fresh link for an unverified account; silent otherwise. */
  async resendVerification(rawEmail: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const now = this.deps.clock.now();
    const account = await this.deps.store.accounts.findByEmail(email);
    if (account === null || account.emailVerifiedAt !== null) return;
    try {
      await this.deps.limiter.consume(AttemptLimits.resendPerAddress, email);
    } catch (error) {
      // Over the limit the answer stays the same (no enumeration); the extra email is simply not sent.
      if (error instanceof DomainError && error.code === 'rate_limited') return;
      throw error;
    }
    await this.deps.uow.run(async (tx) => {
      await tx.identity.oneTimeTokens.expireUnused('verify', email, now);
      await this.sendVerification(tx, account.id, email, now);
    });
  }

  /** POST /v1/waitlist: queues a confirmation email unless the address is already confirmed. */
  async joinWaitlist(rawEmail: string): Promise<void> {
    if (this.deps.settings.signupMode === 'open') {
      throw new DomainError('waitlist_unavailable', 'Signup is open; there is no waitlist to join.');
    }
    const email = normaliseEmail(rawEmail);
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const row = await tx.identity.waitlist.upsert(email, now);
      if (row.confirmedAt !== null) return;
      await tx.identity.oneTimeTokens.expireUnused('waitlist', email, now);
      const token = newOpaqueToken(this.deps.random, 'wl_');
      await tx.identity.oneTimeTokens.create({
        purpose: 'waitlist',
        hash: this.deps.keyedHash.mac(SecretPurpose.oneTime, token),
        accountId: null,
        email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IdentityLimits.waitlistTtlMs),
        usedAt: null,
      });
      await tx.mail.enqueue(
        waitlistConfirmationMail(
          email,
          `${this.deps.settings.dashboardUrl}/waitlist/confirm?token=${encodeURIComponent(token)}`,
        ),
      );
    });
  }

  /** GET /v1/waitlist/confirm: confirms the address the token was sent to. */
  async confirmWaitlist(token: string): Promise<string> {
    const now = this.deps.clock.now();
    const hash = this.deps.keyedHash.mac(SecretPurpose.oneTime, token);
    return this.deps.uow.run(async (tx) => {
      const record = await consumeOneTimeToken(tx.identity, 'waitlist', hash, now);
      await tx.identity.waitlist.confirm(record.email, now);
      return record.email;
    });
  }

  private async takeInviteUse(tx: SignUpScope, code: string | undefined, now: Date): Promise<void> {
    const refused = () =>
      new DomainError('invite_required', 'Signup needs a valid invite code on this deployment.');
    if (code === undefined) throw refused();
    const taken = await tx.identity.invites.consumeUse(
      this.deps.keyedHash.mac(SecretPurpose.invite, code),
      now,
    );
    if (!taken) throw refused();
  }

  private async sendVerification(
    tx: SignUpScope,
    accountId: string,
    email: string,
    now: Date,
  ): Promise<void> {
    const token = newOpaqueToken(this.deps.random, 'ver_');
    await tx.identity.oneTimeTokens.create({
      purpose: 'verify',
      hash: this.deps.keyedHash.mac(SecretPurpose.oneTime, token),
      accountId,
      email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IdentityLimits.verificationTtlMs),
      usedAt: null,
    });
    await tx.mail.enqueue(
      verificationMail(
        email,
        `${this.deps.settings.dashboardUrl}/verify-email?token=${encodeURIComponent(token)}`,
      ),
    );
  }
}
