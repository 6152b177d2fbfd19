import { DomainError, notFound } from '../shared/domain-error.js';
import { accountView, normaliseEmail } from './account-view.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { ThrottledAttempt } from './identity.ports.js';
import type { AccountRecord, SessionRow, SignInMethod } from './identity.records.js';
import type { Account, LoginRequest, SessionRecord } from './identity.schemas.js';
import { IdentityLimits } from './identity.settings.js';
import type { SessionScope } from './identity-transaction.ports.js';
import type { MembershipRow } from './membership.records.js';
import { actingMembership } from './organisation-membership.service.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';
import { assertRecentSignIn, isRecentSignIn } from './step-up.js';

/** Where a sign-in came from, recorded on the session. */
export interface SignInContext {
  ip: string;
  userAgent: string;
  /** The request's id, for the `session.created` audit entry. */
  requestId?: string;
  /**
   * The session token the browser presented while signing in (confirming it is the person, or signing in
   * again): a live session of the same account it names is ended by the new one, so one browser holds one.
   */
  replacing?: string | undefined;
}

/** A new session: the cookie value (shown once) and when it ends at the latest. */
export interface IssuedSession {
  token: string;
  expiresAt: Date;
  account: Account;
  session: SessionRow;
}

/** A presented session token that is live, with the renewed token when this request renewed it. */
export interface AuthenticatedSession {
  session: SessionRow;
  account: AccountRecord;
  /** The membership the session acts through (ADR 0047); null when the account belongs to no organisation. */
  membership: MembershipRow | null;
  /** Set on the first request more than 24 h after the token was issued (spec 5.2.2). */
  renewed: { token: string; expiresAt: Date } | null;
}

/** A hash that no password matches, verified when the address is unknown so both paths cost the same. */
const UNKNOWN_ACCOUNT_HASH =
  '$argon2id$v=19$m=19456,p=1,t=2$Os75VDrFMErhvuM5F4bsIA$T6UeCP6S87S1jBDx9PvCWiMq3fz8FWpTaYTMfihuPoM';

/** Password sign-in, sessions and their renewal (spec 5.2, ROUTES.md). */
export class SessionService {
  constructor(private readonly deps: IdentityDependencies<SessionScope>) {}

  /**
   * POST /v1/auth/login with email and password, and the authenticator code when TOTP is on. Attempts of the
   * address and account run one at a time and failures space them out (429 rate_limited when too soon, see
   * LoginThrottle); whether TOTP is on is revealed only after a right password.
   */
  async login(request: LoginRequest, context: SignInContext): Promise<IssuedSession> {
    const email = normaliseEmail(request.email);
    const account = await this.deps.store.accounts.findByEmail(email);
    const keys = account === null ? [`email:${email}`] : [`email:${email}`, `account:${account.id}`];
    const attempt = this.deps.throttle.admit(keys);
    try {
      const hash = account?.passwordHash ?? UNKNOWN_ACCOUNT_HASH;
      const matches = await this.deps.hasher.verify(hash, request.password);
      if (account === null || account.passwordHash === null || !matches) {
        attempt.fail('password');
        throw new DomainError('invalid_credentials', 'The email or password is not right.');
      }
      const strong = await this.checkSecondFactor(account, request.totp_code, attempt);
      attempt.succeed();
      return this.issue(account, 'password', strong, context);
    } finally {
      attempt.end();
    }
  }

  /**
   * True when the sign-in used TOTP; throws 401 second_factor_required or invalid_second_factor (a failure of
   * the attempt), or 429 while wrong codes have locked the step.
   */
  private async checkSecondFactor(
    account: AccountRecord,
    code: string | undefined,
    attempt: ThrottledAttempt,
  ): Promise<boolean> {
    const totp = await this.deps.store.secondFactors.totp(account.id);
    if (totp.enabledAt === null || totp.secret === null) return false;
    if (code === undefined || code.length === 0) {
      throw new DomainError(
        'second_factor_required',
        'This account needs the code from its authenticator app.',
      );
    }
    attempt.assertSecondFactorOpen();
    const secret = this.deps.secretBox.open(totp.secret);
    const step = await this.deps.totp.verify(secret, code, this.deps.clock.now(), totp.lastStep);
    if (step === null || !(await this.deps.store.secondFactors.acceptTotpStep(account.id, step))) {
      attempt.fail('second_factor');
      throw new DomainError(
        'invalid_second_factor',
        'The authenticator code is not right (or was already used).',
      );
    }
    return true;
  }

  /** Opens a session for an account that proved who it is by `method`. */
  async issue(
    account: AccountRecord,
    method: SignInMethod,
    strong: boolean,
    context: SignInContext,
    options: { restricted?: boolean } = {},
  ): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const token = newOpaqueToken(this.deps.random);
    const session: SessionRow = {
      id: this.deps.random.uuid(),
      accountId: account.id,
      tokenHash: this.deps.keyedHash.mac(SecretPurpose.session, token),
      tokenIssuedAt: now,
      previousTokenHash: null,
      previousValidUntil: null,
      createdAt: now,
      lastUsedAt: now,
      userAgent: context.userAgent.slice(0, 512),
      ip: context.ip,
      method,
      strong,
      restricted: options.restricted === true,
      revokedAt: null,
    };
    const replaced = await this.sessionReplacedBy(account.id, context.replacing, now);
    await this.deps.uow.run(async (tx) => {
      await tx.identity.sessions.create(session);
      if (replaced !== null) await tx.identity.sessions.revoke(account.id, replaced.id, now);
      await tx.audit.record({
        orgId: account.orgId,
        actor: `account:${account.id}`,
        clientIp: context.ip,
        requestId: context.requestId,
        action: 'session.created',
        target: `accounts/${account.id}/sessions/${session.id}`,
        details: replaced === null ? { method } : { method, replaces: replaced.id },
        at: now,
      });
    });
    return { token, expiresAt: this.expiryOf(session), account: accountView(account), session };
  }

  /** The live session of `accountId` that `token` names, if any: another account's session is left alone. */
  private async sessionReplacedBy(
    accountId: string,
    token: string | undefined,
    now: Date,
  ): Promise<SessionRow | null> {
    if (token === undefined) return null;
    const hash = this.deps.keyedHash.mac(SecretPurpose.session, token);
    const session = await this.deps.store.sessions.findByTokenHash(hash, now);
    return session !== null && session.accountId === accountId && this.isLive(session, now) ? session : null;
  }

  /**
   * Resolves a presented session token: null when unknown, revoked, past 30 days from sign-in or 7 days idle.
   * Renews the token on the first request 24 h after it was issued; a request racing the renewal keeps
   * working through the previous token's grace, so concurrent requests never sign the user out.
   */
  async authenticate(token: string): Promise<AuthenticatedSession | null> {
    const now = this.deps.clock.now();
    const hash = this.deps.keyedHash.mac(SecretPurpose.session, token);
    const session = await this.deps.store.sessions.findByTokenHash(hash, now);
    if (session === null || !this.isLive(session, now)) return null;
    const account = await this.deps.store.accounts.findById(session.accountId);
    if (account === null) return null;
    const membership = await actingMembership(this.deps.store, account, session.actingOrgId ?? null);

    let renewed: AuthenticatedSession['renewed'] = null;
    const presentedCurrent = session.tokenHash === hash;
    if (
      presentedCurrent &&
      now.getTime() - session.tokenIssuedAt.getTime() > IdentityLimits.sessionRenewAfterMs
    ) {
      const next = newOpaqueToken(this.deps.random);
      const nextHash = this.deps.keyedHash.mac(SecretPurpose.session, next);
      const won = await this.deps.store.sessions.renew(session.id, hash, {
        tokenHash: nextHash,
        issuedAt: now,
        previousValidUntil: new Date(now.getTime() + IdentityLimits.sessionPreviousTokenGraceMs),
      });
      if (won) renewed = { token: next, expiresAt: this.expiryOf(session) };
    }
    if (now.getTime() - session.lastUsedAt.getTime() > IdentityLimits.touchEveryMs) {
      await this.deps.store.sessions.touch(session.id, now);
    }
    return { session, account, membership, renewed };
  }

  /** POST /v1/auth/logout. */
  async logout(accountId: string, sessionId: string): Promise<void> {
    await this.deps.store.sessions.revoke(accountId, sessionId, this.deps.clock.now());
  }

  /** GET /v1/auth/sessions: live sessions, newest first, the caller's marked current. */
  async list(accountId: string, currentSessionId: string): Promise<SessionRecord[]> {
    const now = this.deps.clock.now().getTime();
    const rows = await this.deps.store.sessions.listLive(
      accountId,
      new Date(now - IdentityLimits.sessionLifetimeMs),
      new Date(now - IdentityLimits.sessionIdleMs),
    );
    return rows.map((row) => ({
      id: row.id,
      current: row.id === currentSessionId,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt.toISOString(),
      expires_at: this.expiryOf(row).toISOString(),
      user_agent: row.userAgent,
      ip: row.ip,
      method: row.method,
    }));
  }

  /** DELETE /v1/auth/sessions: signs out every other session. */
  async revokeOthers(accountId: string, currentSessionId: string): Promise<number> {
    return this.deps.store.sessions.revokeAllExcept(accountId, currentSessionId, this.deps.clock.now());
  }

  /** DELETE /v1/auth/sessions/{id}: 404 for a session that is not the account's or already ended. */
  async revokeOne(accountId: string, sessionId: string): Promise<void> {
    if (!(await this.deps.store.sessions.revoke(accountId, sessionId, this.deps.clock.now()))) {
      throw notFound('session');
    }
  }

  /** True when the session signed in within the step-up window (spec 5.5.2). */
  isRecentSignIn(session: SessionRow): boolean {
    return isRecentSignIn(session, this.deps.clock.now());
  }

  /** Credential changes need a sign-in within the last five minutes: 403 reauth_required otherwise. */
  assertStepUp(session: SessionRow): void {
    assertRecentSignIn(session, this.deps.clock.now());
  }

  private isLive(session: SessionRow, now: Date): boolean {
    return (
      now.getTime() < session.createdAt.getTime() + IdentityLimits.sessionLifetimeMs &&
      now.getTime() < session.lastUsedAt.getTime() + IdentityLimits.sessionIdleMs
    );
  }

  /** The latest a session can last: 30 days from sign-in (idleness may end it sooner). */
  private expiryOf(session: SessionRow): Date {
    return new Date(session.createdAt.getTime() + IdentityLimits.sessionLifetimeMs);
  }
}
