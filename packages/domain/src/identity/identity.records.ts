import type { Scope } from './scopes.js';

/** An organisation: the tenant every account, token and profile belongs to. */
export interface OrganisationRecord {
  id: string;
  name: string;
  createdAt: Date;
}

/** An account as stored. The email is stored lower case; the password only as an argon2id hash. */
export interface AccountRecord {
  id: string;
  orgId: string;
  role: string;
  email: string;
  emailVerifiedAt: Date | null;
  passwordHash: string | null;
  plan: string;
  mfa: boolean;
  isAdmin: boolean;
  createdAt: Date;
  deletionRequestedAt: Date | null;
  deletionDueAt: Date | null;
}

/** What a single-use emailed token is for. */
export type OneTimeTokenPurpose = 'verify' | 'reset' | 'waitlist' | 'recovery';

/** A single-use emailed token, stored only as its keyed hash. */
export interface OneTimeTokenRecord {
  hash: string;
  purpose: OneTimeTokenPurpose;
  accountId: string | null;
  email: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** How a session signed in. */
export type SignInMethod = 'password' | 'passkey' | 'recovery';

/** A session as stored: its current and previous token only as keyed hashes. */
export interface SessionRow {
  id: string;
  accountId: string;
  tokenHash: string;
  tokenIssuedAt: Date;
  /** The token replaced at the last renewal, accepted until `previousValidUntil`. */
  previousTokenHash: string | null;
  previousValidUntil: Date | null;
  /** Sign-in time: the 30-day lifetime and the step-up window count from it. */
  createdAt: Date;
  lastUsedAt: Date;
  userAgent: string;
  ip: string;
  method: SignInMethod;
  /** True when the sign-in used a second factor or a passkey (operator strength, spec 5.4). */
  strong: boolean;
  /** A recovery sign-in that must set up a second factor before anything else (403 mfa_enrolment_required). */
  restricted: boolean;
  revokedAt: Date | null;
  /**
   * The organisation the session acts in (PUT /v1/auth/me/organisation); absent or null for the account's own.
   * A membership that ended meanwhile is ignored (ADR 0047).
   */
  actingOrgId?: string | null;
}

/** An API token as stored: the secret only as a keyed hash. */
export interface ApiTokenRow {
  id: string;
  accountId: string;
  orgId: string;
  name: string;
  scopes: Scope[];
  secretHash: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** An invite code for signup mode `invite`, stored as its keyed hash. */
export interface InviteRow {
  id: string;
  codeHash: string;
  /** First characters of the code, to recognise it in listings. */
  prefix: string;
  maxUses: number;
  uses: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** An address on the waitlist. */
export interface WaitlistRow {
  email: string;
  createdAt: Date;
  confirmedAt: Date | null;
}

/** An account's TOTP state; secrets sealed with the server key. */
export interface TotpState {
  secret: string | null;
  pendingSecret: string | null;
  enabledAt: Date | null;
  /** The last accepted RFC 6238 time step: a code of that step or an earlier one is never accepted again. */
  lastStep: number | null;
}
