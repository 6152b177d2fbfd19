import type { AuditSource } from '../audit/audit.ports.js';
import { accountRecoveryMail, secondFactorChangedMail } from '../mail/identity.mails.js';
import { DomainError } from '../shared/domain-error.js';
import { assertEmailVerified } from './email-verification.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { SessionRow } from './identity.records.js';
import { AttemptLimits, IdentityLimits } from './identity.settings.js';
import type { SecondFactorScope } from './identity-transaction.ports.js';
import { type MailedLink, mailOneTimeLink } from './mailed-link-limit.js';
import { consumeOneTimeToken } from './one-time-tokens.js';
import {
  canonicalRecoveryCode,
  issueRecoveryCodes,
  RECOVERY_CODE_PURPOSE,
  recoveryCodesForFirstFactor,
} from './recovery-codes.js';
import { recordSecondFactorChange, type SecondFactorOwner } from './second-factor-audit.js';
import { SecretPurpose } from './secrets.js';
import type { IssuedSession, SessionService, SignInContext } from './session.service.js';

const ISSUER = 'svc';

/** The one-hour account recovery link (spec 5.5): it signs in together with one recovery code. */
const RECOVERY_LINK: MailedLink = {
  purpose: 'recovery',
  tokenPrefix: 'rec_',
  addressLimit: AttemptLimits.recoveryPerAddress,
  ttlMs: IdentityLimits.recoveryTtlMs,
  mail: (email, token, dashboardUrl) =>
    accountRecoveryMail(email, `${dashboardUrl}/login?recovery=${encodeURIComponent(token)}`),
};

/**
 * TOTP, recovery codes and account recovery (spec 5.5, ROUTES.md "Second factors"). Credential changes need a
 * recent sign-in (step-up); each change is emailed to the owner and audited as `account.second_factor_changed`
 * in the same transaction.
 */
export class SecondFactorService {
  constructor(
    private readonly deps: IdentityDependencies<SecondFactorScope>,
    private readonly sessions: SessionService,
  ) {}

  /** GET /v1/auth/totp: whether TOTP is on (a pending enrolment is not). */
  async totpStatus(accountId: string): Promise<{ enabled: boolean; enabled_at: string | null }> {
    const state = await this.deps.store.secondFactors.totp(accountId);
    return { enabled: state.enabledAt !== null, enabled_at: state.enabledAt?.toISOString() ?? null };
  }

  /**
   * POST /v1/auth/totp: a new secret to confirm; 409 totp_already_enabled when TOTP is on, 403
   * email_unverified before the address is verified.
   */
  async startTotp(
    session: SessionRow,
    owner: Pick<SecondFactorOwner, 'email' | 'emailVerifiedAt'>,
  ): Promise<{ secret: string; otpauth_uri: string }> {
    assertEmailVerified(owner);
    if (!session.restricted) this.sessions.assertStepUp(session);
    const state = await this.deps.store.secondFactors.totp(session.accountId);
    if (state.enabledAt !== null) throw new DomainError('totp_already_enabled', 'TOTP is already on.');
    const secret = this.deps.totp.generateSecret();
    await this.deps.store.secondFactors.setPendingTotp(session.accountId, this.deps.secretBox.seal(secret));
    return { secret, otpauth_uri: this.deps.totp.uri(secret, owner.email, ISSUER) };
  }

  /**
   * POST /v1/auth/totp/confirm: turns TOTP on with a first valid code. Ten recovery codes come with the first
   * second factor; a restricted recovery session becomes a normal, strong one.
   */
  async confirmTotp(
    session: SessionRow,
    owner: SecondFactorOwner,
    code: string,
    source: AuditSource,
  ): Promise<{ enabled: true; recovery_codes?: string[] }> {
    assertEmailVerified(owner);
    await this.deps.limiter.consume(AttemptLimits.secondFactorPerAccount, session.accountId);
    const state = await this.deps.store.secondFactors.totp(session.accountId);
    if (state.enabledAt !== null) throw new DomainError('totp_already_enabled', 'TOTP is already on.');
    if (state.pendingSecret === null) {
      throw new DomainError('totp_not_enabled', 'Start TOTP enrolment first (POST /v1/auth/totp).');
    }
    const now = this.deps.clock.now();
    const step = await this.deps.totp.verify(this.deps.secretBox.open(state.pendingSecret), code, now, null);
    if (step === null) throw new DomainError('invalid_second_factor', 'The authenticator code is not right.');
    return this.deps.uow.run(async (tx) => {
      await tx.identity.secondFactors.enableTotp(session.accountId, now, step);
      await tx.identity.secondFactors.setMfa(session.accountId, true);
      await tx.identity.sessions.liftRestriction(session.id);
      const codes = await recoveryCodesForFirstFactor(this.deps, tx, session.accountId, now);
      await this.notify(tx, owner.email, 'an authenticator app (TOTP) was turned on for signing in');
      await recordSecondFactorChange(tx, {
        accountId: session.accountId,
        orgId: owner.orgId,
        source,
        at: now,
        details: {
          factor: 'totp',
          change: 'enabled',
          recovery_codes_issued: codes !== undefined,
        },
      });
      return codes === undefined ? { enabled: true } : { enabled: true, recovery_codes: codes };
    });
  }

  /**
   * POST /v1/auth/totp/disable (step-up, with a current code). A wrong code is a failure on the account's
   * sign-in ladder and counts towards the lock of its second-factor step (see LoginThrottle).
   */
  async disableTotp(
    session: SessionRow,
    owner: SecondFactorOwner,
    code: string,
    source: AuditSource,
  ): Promise<{ enabled: false }> {
    this.sessions.assertStepUp(session);
    await this.deps.limiter.consume(AttemptLimits.secondFactorPerAccount, session.accountId);
    const state = await this.deps.store.secondFactors.totp(session.accountId);
    if (state.enabledAt === null || state.secret === null) {
      throw new DomainError('totp_not_enabled', 'TOTP is not on.');
    }
    const now = this.deps.clock.now();
    const attempt = this.deps.throttle.admit([`account:${session.accountId}`]);
    try {
      attempt.assertSecondFactorOpen();
      const step = await this.deps.totp.verify(
        this.deps.secretBox.open(state.secret),
        code,
        now,
        state.lastStep,
      );
      if (step === null) {
        attempt.fail('second_factor');
        throw new DomainError('invalid_second_factor', 'The authenticator code is not right.');
      }
      attempt.succeed();
    } finally {
      attempt.end();
    }
    await this.deps.uow.run(async (tx) => {
      await tx.identity.secondFactors.disableTotp(session.accountId);
      // Passkeys remain a second factor.
      const passkeys = await tx.identity.passkeys.listByAccount(session.accountId);
      await tx.identity.secondFactors.setMfa(session.accountId, passkeys.length > 0);
      await this.notify(tx, owner.email, 'the authenticator app (TOTP) was turned off');
      await recordSecondFactorChange(tx, {
        accountId: session.accountId,
        orgId: owner.orgId,
        source,
        at: now,
        details: {
          factor: 'totp',
          change: 'disabled',
          via: 'code',
        },
      });
    });
    return { enabled: false };
  }

  /** GET /v1/auth/recovery-codes. */
  async remainingRecoveryCodes(accountId: string): Promise<number> {
    return this.deps.store.secondFactors.remainingRecoveryCodes(accountId);
  }

  /** POST /v1/auth/recovery-codes (step-up): ten new codes replace the old; 409 no_second_factor without one. */
  async replaceRecoveryCodes(
    session: SessionRow,
    owner: SecondFactorOwner,
    source: AuditSource,
  ): Promise<string[]> {
    this.sessions.assertStepUp(session);
    const account = await this.deps.store.accounts.findById(session.accountId);
    if (account === null || !account.mfa) {
      throw new DomainError(
        'no_second_factor',
        'Recovery codes come with a second factor; set one up first.',
      );
    }
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const codes = await issueRecoveryCodes(this.deps, tx, session.accountId, now);
      await this.notify(tx, owner.email, 'new recovery codes were issued and the old ones stopped working');
      await recordSecondFactorChange(tx, {
        accountId: session.accountId,
        orgId: owner.orgId,
        source,
        at: now,
        details: {
          factor: 'recovery_codes',
          change: 'replaced',
        },
      });
      return codes;
    });
  }

  /**
   * POST /v1/auth/recovery: emails a one-hour `rec_` link when the address has an account; same answer always.
   * Limited like reset requests: per client network (429), and per address without letting a stranger block
   * the owner (see {@link linkStillOwed}).
   */
  async requestRecovery(rawEmail: string, clientNetwork: string): Promise<void> {
    await mailOneTimeLink(this.deps, RECOVERY_LINK, rawEmail, clientNetwork);
  }

  /**
   * POST /v1/auth/recovery/confirm: the emailed token and one recovery code sign in to a restricted session
   * that must set up a second factor again (the old TOTP is turned off). A wrong code is 401
   * invalid_recovery_code and leaves the token usable, a few times an hour; it is also a failure on the
   * account's sign-in ladder and counts towards the lock of its second-factor step (see LoginThrottle).
   */
  async confirmRecovery(token: string, recoveryCode: string, context: SignInContext): Promise<IssuedSession> {
    const hash = this.deps.keyedHash.mac(SecretPurpose.oneTime, token);
    await this.deps.limiter.consume(AttemptLimits.recoveryConfirmPerToken, hash);
    const pending = await this.deps.store.oneTimeTokens.find('recovery', hash);
    const attempt = this.deps.throttle.admit(
      pending?.accountId == null ? [] : [`account:${pending.accountId}`],
    );
    try {
      attempt.assertSecondFactorOpen();
      const session = await this.recover(hash, recoveryCode, context);
      attempt.succeed();
      return session;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'invalid_recovery_code')
        attempt.fail('second_factor');
      throw error;
    } finally {
      attempt.end();
    }
  }

  /** Checks the token and the code, turns TOTP off and opens the restricted session, for confirmRecovery. */
  private async recover(hash: string, recoveryCode: string, context: SignInContext): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const codeHash = this.deps.keyedHash.mac(RECOVERY_CODE_PURPOSE, canonicalRecoveryCode(recoveryCode));
    const accountId = await this.deps.uow.run(async (tx) => {
      const record = await tx.identity.oneTimeTokens.find('recovery', hash);
      if (record === null) throw new DomainError('invalid_token', 'This link is not valid.');
      if (record.usedAt !== null) throw new DomainError('token_used', 'This link was already used.');
      if (record.expiresAt.getTime() <= now.getTime()) {
        throw new DomainError('token_expired', 'This link has expired; ask for a new one.');
      }
      const owner = record.accountId;
      if (owner === null || !(await tx.identity.secondFactors.consumeRecoveryCode(owner, codeHash, now))) {
        throw new DomainError(
          'invalid_recovery_code',
          'That recovery code is not right or was already used.',
        );
      }
      await consumeOneTimeToken(tx.identity, 'recovery', hash, now);
      await tx.identity.secondFactors.disableTotp(owner);
      await tx.identity.secondFactors.setMfa(owner, false);
      await this.notify(
        tx,
        record.email,
        'the account was recovered with a recovery code; set up a second factor again',
      );
      const account = await tx.identity.accounts.findById(owner);
      if (account !== null) {
        const source = { actor: `account:${owner}`, clientIp: context.ip, requestId: context.requestId };
        await recordSecondFactorChange(tx, {
          accountId: owner,
          orgId: account.orgId,
          source,
          at: now,
          details: {
            factor: 'totp',
            change: 'disabled',
            via: 'recovery',
          },
        });
      }
      return owner;
    });
    const account = await this.deps.store.accounts.findById(accountId);
    if (account === null) throw new DomainError('invalid_token', 'This link is not valid.');
    return this.sessions.issue(account, 'recovery', false, context, { restricted: true });
  }

  private async notify(tx: SecondFactorScope, email: string, change: string): Promise<void> {
    await tx.mail.enqueue(
      secondFactorChangedMail(email, change, {
        security: `${this.deps.settings.dashboardUrl}/account/security`,
      }),
    );
  }
}
