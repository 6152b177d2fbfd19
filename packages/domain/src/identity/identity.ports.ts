import type { KeysetPage } from '../pagination/keyset.js';
import type {
  AccountRecord,
  ApiTokenRow,
  InviteRow,
  OneTimeTokenPurpose,
  OneTimeTokenRecord,
  OrganisationRecord,
  SessionRow,
  TotpState,
  WaitlistRow,
} from './identity.records.js';
import type {
  MemberAccessRepository,
  MembershipRepository,
  OrgInvitationRepository,
} from './membership.ports.js';
import type { PasskeyRepository, WebAuthnChallengeRepository } from './passkey.ports.js';

/** Hashes passwords (argon2id in the adapter); verification is constant-time in the adapter. */
export const PasswordHasher = Symbol.for('svc.PasswordHasher');
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Account reads. */
export interface AccountReadRepository {
  findById(id: string): Promise<AccountRecord | null>;
  findByEmail(email: string): Promise<AccountRecord | null>;
  /** The organisation's owner accounts, oldest first (recipients of the organisation's alerts). */
  listOwners(orgId: string): Promise<AccountRecord[]>;
}

/** What signing up writes of accounts. */
export interface AccountRegistrationRepository {
  /** Inserts the organisation and its owner; false when the email is already registered. */
  createWithOrganisation(organisation: OrganisationRecord, account: AccountRecord): Promise<boolean>;
  /**
   * Records that an account-exists email goes out at `at`, unless one went out after `notBefore`; true when
   * this call claimed the send (atomic: of concurrent signups of one address, one sends).
   */
  claimAccountExistsMail(id: string, at: Date, notBefore: Date): Promise<boolean>;
}

/** An account's proofs: its verified address and its password. */
export interface AccountCredentialRepository {
  /** Marks the address verified unless it already is; true when this call verified it (atomic: one of racing calls). */
  markEmailVerified(id: string, at: Date): Promise<boolean>;
  /** A null hash leaves the account to its passkeys (password sign-in refused). */
  setPasswordHash(id: string, passwordHash: string | null): Promise<void>;
}

/** The operator flag of accounts (`svc operator grant|revoke`). */
export interface AccountOperatorRepository {
  setOperator(id: string, isAdmin: boolean): Promise<void>;
}

/** Account deletion with cooling-off and erasure (spec 3). */
export interface AccountDeletionRepository {
  /** Marks a deletion requested, due at `dueAt`; false when one is already pending (spec 3). */
  startDeletion(id: string, requestedAt: Date, dueAt: Date): Promise<boolean>;
  /** Clears a pending deletion unless its erasure began (spec 3: 409 no_deletion_pending, deletion_started). */
  cancelDeletion(id: string): Promise<'canceled' | 'not_pending' | 'erasure_started'>;
  /**
   * Claims one account whose deletion is due at `now` and whose erasure has not begun, marking erasure begun
   * (atomic across servers: a claimed account is never claimed twice); null when none is due.
   */
  claimDueErasure(now: Date): Promise<AccountRecord | null>;
  /**
   * Erases a claimed account: its sessions, API tokens, second factors and passkeys are deleted, and the
   * account and organisation rows are anonymised (kept so audit entries and reports keep their references).
   */
  erase(id: string, at: Date): Promise<void>;
}

/** Accounts and their organisations, every use together: what the storages implement. */
export interface AccountRepository
  extends AccountReadRepository,
    AccountRegistrationRepository,
    AccountCredentialRepository,
    AccountOperatorRepository,
    AccountDeletionRepository {}

/** Single-use emailed tokens (verification, reset, waitlist confirmation). */
export interface OneTimeTokenRepository {
  create(token: OneTimeTokenRecord): Promise<void>;
  find(purpose: OneTimeTokenPurpose, hash: string): Promise<OneTimeTokenRecord | null>;
  /** Marks the token used; false when it was already used (a concurrent consumer won). */
  consume(purpose: OneTimeTokenPurpose, hash: string, at: Date): Promise<boolean>;
  /** Expires every unused token of this purpose for the address (a newer one replaces them). */
  expireUnused(purpose: OneTimeTokenPurpose, email: string, at: Date): Promise<void>;
  /** True when a token of this purpose for the address is unused and unexpired at `now` (its mail still works). */
  hasLive(purpose: OneTimeTokenPurpose, email: string, now: Date): Promise<boolean>;
}

/** Sessions; lookups take the keyed hash of the presented token. */
export interface SessionRepository {
  create(session: SessionRow): Promise<void>;
  /** The unrevoked session whose current token, or previous token still in its grace, has this hash. */
  findByTokenHash(hash: string, now: Date): Promise<SessionRow | null>;
  findById(accountId: string, id: string): Promise<SessionRow | null>;
  /**
   * Replaces the token of a session still holding `expectedHash`; false when another request renewed it
   * first (its caller keeps working through the previous-token grace).
   */
  renew(
    id: string,
    expectedHash: string,
    next: { tokenHash: string; issuedAt: Date; previousValidUntil: Date },
  ): Promise<boolean>;
  touch(id: string, at: Date): Promise<void>;
  revoke(accountId: string, id: string, at: Date): Promise<boolean>;
  /** Revokes every live session of the account but `exceptId`; returns how many. */
  revokeAllExcept(accountId: string, exceptId: string | null, at: Date): Promise<number>;
  /** Ends the restriction of a recovery session and marks it strong (a second factor was just set up). */
  liftRestriction(id: string): Promise<void>;
  /** Live sessions of the account (not revoked, not expired by `liveAfter` rules), newest first. */
  listLive(accountId: string, createdAfter: Date, usedAfter: Date): Promise<SessionRow[]>;
}

/** API tokens. */
export interface ApiTokenRepository {
  create(token: ApiTokenRow): Promise<void>;
  findBySecretHash(hash: string): Promise<ApiTokenRow | null>;
  /** A token by id, revoked or not (the audit log names the account behind a token actor). */
  findById(id: string): Promise<ApiTokenRow | null>;
  /** The account's unrevoked tokens, newest first, after the keyset position. */
  listByAccount(accountId: string, page: KeysetPage): Promise<ApiTokenRow[]>;
  /** Revokes one token of the account; false when it has none by that id (or it is already revoked). */
  revoke(accountId: string, id: string, at: Date): Promise<boolean>;
  touch(id: string, at: Date): Promise<void>;
  /** Revokes every live token of the account (account deletion); returns how many. */
  revokeAll(accountId: string, at: Date): Promise<number>;
}

/** Invite codes. */
export interface InviteRepository {
  create(invite: InviteRow): Promise<void>;
  list(): Promise<InviteRow[]>;
  /** Takes one use of a live code (unrevoked, unexpired, uses left), atomically; false otherwise. */
  consumeUse(codeHash: string, now: Date): Promise<boolean>;
  /** Revokes the code whose hash or id matches; false when none is live. */
  revoke(codeHashOrId: string, at: Date): Promise<boolean>;
}

/** Waitlist addresses. */
export interface WaitlistRepository {
  /** Adds the address unless present; returns the row. */
  upsert(email: string, at: Date): Promise<WaitlistRow>;
  confirm(email: string, at: Date): Promise<void>;
}

/** TOTP and recovery codes of accounts. */
export interface SecondFactorRepository {
  totp(accountId: string): Promise<TotpState>;
  setPendingTotp(accountId: string, sealedSecret: string | null): Promise<void>;
  /** Moves the pending secret into place (TOTP on) with the step of the confirming code. */
  enableTotp(accountId: string, at: Date, step: number): Promise<void>;
  disableTotp(accountId: string): Promise<void>;
  /** Records an accepted step unless an equal or later one was recorded (atomic: a replayed code loses). */
  acceptTotpStep(accountId: string, step: number): Promise<boolean>;
  replaceRecoveryCodes(accountId: string, codeHashes: readonly string[], at: Date): Promise<void>;
  /** Uses one unused recovery code; false when there is none with this hash. */
  consumeRecoveryCode(accountId: string, codeHash: string, at: Date): Promise<boolean>;
  remainingRecoveryCodes(accountId: string): Promise<number>;
  setMfa(accountId: string, mfa: boolean): Promise<void>;
}

/** Every identity repository, on one connection or transaction. */
export interface IdentityRepositories {
  accounts: AccountRepository;
  oneTimeTokens: OneTimeTokenRepository;
  sessions: SessionRepository;
  apiTokens: ApiTokenRepository;
  invites: InviteRepository;
  waitlist: WaitlistRepository;
  secondFactors: SecondFactorRepository;
  passkeys: PasskeyRepository;
  webauthnChallenges: WebAuthnChallengeRepository;
  memberships: MembershipRepository;
  orgInvitations: OrgInvitationRepository;
  memberAccess: MemberAccessRepository;
}

/** The identity repositories outside any transaction (single-statement reads and writes). */
export const IdentityStore = Symbol.for('svc.IdentityStore');
export type IdentityStore = IdentityRepositories;

/**
 * Slows guessing at sign-in (spec 5.2.3) for every key of an attempt (the address, the account): after a
 * failure the keys take no attempt until 100 ms have passed, doubling with each further failure up to 5 s,
 * and never two attempts at once. An attempt that comes sooner is refused with 429 rate_limited and the
 * seconds to wait, rather than held: concurrent guesses cannot share one delay, so N guesses take at least
 * the sum of their delays whatever the concurrency, and a waiting guess holds no connection. Wrong second
 * factors (TOTP and recovery codes) are failures on the same ladder, and ten of them lock the keys' second
 * factor step for a while.
 */
export const LoginThrottle = Symbol.for('svc.LoginThrottle');
export interface LoginThrottle {
  /** Admits one attempt for `keys`, or throws 429 rate_limited with Retry-After. The attempt must be ended. */
  admit(keys: readonly string[]): ThrottledAttempt;
}

/** One admitted sign-in attempt: its keys take no other attempt until it is ended. */
export interface ThrottledAttempt {
  /** Throws 429 rate_limited with Retry-After while the keys' second-factor step is locked. */
  assertSecondFactorOpen(): void;
  /** Ends the attempt as a failure: a wrong password (or an unknown address), or a wrong second factor. */
  fail(step: 'password' | 'second_factor'): void;
  /** Ends the attempt as a sign-in: the keys' failures are forgotten. */
  succeed(): void;
  /** Ends the attempt without an outcome (none was reached); does nothing once the attempt has ended. */
  end(): void;
}

/**
 * Counts attempts against named limits (password reset per address and per IP, password change per account);
 * `consume` throws 429 rate_limited when a limit is exceeded.
 */
export const AttemptLimiter = Symbol.for('svc.AttemptLimiter');
export interface AttemptLimiter {
  consume(limit: AttemptLimit, key: string): Promise<void>;
}

/** A named attempt limit: `points` attempts, refilled over `perSeconds`. */
export interface AttemptLimit {
  name: string;
  points: number;
  perSeconds: number;
}

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) with a maintained library in the adapter. */
export const TotpAuthenticator = Symbol.for('svc.TotpAuthenticator');
export interface TotpAuthenticator {
  /** A new base32 secret of at least 160 bits. */
  generateSecret(): string;
  /** The otpauth:// URI authenticator apps scan. */
  uri(secret: string, label: string, issuer: string): string;
  /**
   * The time step `code` belongs to when it is valid at `at` (allowing one step of clock drift back), else
   * null. Steps at or before `afterStep` are refused (replay).
   */
  verify(secret: string, code: string, at: Date, afterStep: number | null): Promise<number | null>;
}

/** Seals small secrets (TOTP keys) with the server key, so a database copy alone does not reveal them. */
export const SecretBox = Symbol.for('svc.SecretBox');
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}
