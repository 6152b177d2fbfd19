import type { KeysetPage } from '../pagination/keyset.js';
import type {
  AccountRecord,
  ApiTokenRow,
  InviteRow,
  OneTimeTokenPurpose,
  OneTimeTokenRecord,
  OrganisationRecord,
  SessionRow,
  WaitlistRow,
} from './identity.records.js';

/** Hashes passwords (argon2id in the adapter); verification is constant-time in the adapter. */
export const PasswordHasher = Symbol.for('svc.PasswordHasher');
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Accounts and their organisations. */
export interface AccountRepository {
  /** Inserts the organisation and its owner; false when the email is already registered. */
  createWithOrganisation(organisation: OrganisationRecord, account: AccountRecord): Promise<boolean>;
  findById(id: string): Promise<AccountRecord | null>;
  findByEmail(email: string): Promise<AccountRecord | null>;
  markEmailVerified(id: string, at: Date): Promise<void>;
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  setOperator(id: string, isAdmin: boolean): Promise<void>;
  /**
   * Records that an account-exists email goes out at `at`, unless one went out after `notBefore`; true when
   * this call claimed the send (atomic: of concurrent signups of one address, one sends).
   */
  claimAccountExistsMail(id: string, at: Date, notBefore: Date): Promise<boolean>;
}

/** Single-use emailed tokens (verification, reset, waitlist confirmation). */
export interface OneTimeTokenRepository {
  create(token: OneTimeTokenRecord): Promise<void>;
  find(purpose: OneTimeTokenPurpose, hash: string): Promise<OneTimeTokenRecord | null>;
  /** Marks the token used; false when it was already used (a concurrent consumer won). */
  consume(purpose: OneTimeTokenPurpose, hash: string, at: Date): Promise<boolean>;
  /** Expires every unused token of this purpose for the address (a newer one replaces them). */
  expireUnused(purpose: OneTimeTokenPurpose, email: string, at: Date): Promise<void>;
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
  /** Live sessions of the account (not revoked, not expired by `liveAfter` rules), newest first. */
  listLive(accountId: string, createdAfter: Date, usedAfter: Date): Promise<SessionRow[]>;
}

/** API tokens. */
export interface ApiTokenRepository {
  create(token: ApiTokenRow): Promise<void>;
  findBySecretHash(hash: string): Promise<ApiTokenRow | null>;
  /** The account's unrevoked tokens, newest first, after the keyset position. */
  listByAccount(accountId: string, page: KeysetPage): Promise<ApiTokenRow[]>;
  /** Revokes one token of the account; false when it has none by that id (or it is already revoked). */
  revoke(accountId: string, id: string, at: Date): Promise<boolean>;
  touch(id: string, at: Date): Promise<void>;
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

/** Every identity repository, on one connection or transaction. */
export interface IdentityRepositories {
  accounts: AccountRepository;
  oneTimeTokens: OneTimeTokenRepository;
  sessions: SessionRepository;
  apiTokens: ApiTokenRepository;
  invites: InviteRepository;
  waitlist: WaitlistRepository;
}

/** The identity repositories outside any transaction (single-statement reads and writes). */
export const IdentityStore = Symbol.for('svc.IdentityStore');
export type IdentityStore = IdentityRepositories;

/**
 * Slows password sign-in after failures (spec 5.2.3) without holding a shared lock: each attempt waits the
 * delay its keys have earned, then proceeds.
 */
export const LoginThrottle = Symbol.for('svc.LoginThrottle');
export interface LoginThrottle {
  /** Waits the delay earned by recent failures of any of `keys` (100 ms doubling to 5 s). */
  delay(keys: readonly string[]): Promise<void>;
  recordFailure(keys: readonly string[]): void;
  recordSuccess(keys: readonly string[]): void;
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
