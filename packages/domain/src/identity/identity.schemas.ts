import { z } from 'zod';
import { Password } from './password.js';
import { Scope } from './scopes.js';

/** An email address as accepted on the public surfaces; stored lower case without surrounding space. */
export const EmailAddress = z
  .email('must be an email address')
  .max(254, 'must be at most 254 characters')
  .meta({ example: 'ada@example.com' });

/** Account (spec 2.1). */
export const Account = z
  .object({
    id: z.uuid(),
    org_id: z.uuid().meta({
      description:
        'The organisation the credential acts in: a session’s chosen one (PUT /v1/auth/me/organisation), by default the account’s own; an API token’s, the one it was made in.',
    }),
    role: z.string().meta({
      description: 'Role in that organisation: `owner`, `admin`, `editor` or `viewer` (docs/roles.md).',
    }),
    email: z.email(),
    email_verified_at: z.iso.datetime().nullable(),
    plan: z.string(),
    mfa: z.boolean().meta({ description: 'True when a second factor is set up.' }),
    created_at: z.iso.datetime(),
    is_admin: z.boolean().meta({ description: 'Operator account; may hold the admin scope.' }),
    deletion_requested_at: z.iso.datetime().nullable(),
    deletion_due_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

/** `{account}` answers of sign-in, verification and GET /v1/auth/me. */
export const AccountEnvelope = z.object({ account: Account }).meta({ id: 'AccountEnvelope' });
export type AccountEnvelope = z.infer<typeof AccountEnvelope>;

/**
 * GET /v1/auth/status: the account of the session cookie sent, or `null` when none was sent or it ended. Being
 * signed out is an answer here, not an error, so a browser can ask without a failed request in its console.
 */
export const SignInStatus = z
  .object({
    account: Account.nullable().meta({
      description: 'The signed-in account, or null when the request carries no live session.',
    }),
  })
  .meta({ id: 'SignInStatus' });
export type SignInStatus = z.infer<typeof SignInStatus>;

/** POST /v1/auth/signup (spec 4.8). */
export const SignupRequest = z
  .object({
    email: EmailAddress,
    password: Password,
    invite_code: z.string().min(1).max(200).optional().meta({ description: 'Opaque invite code.' }),
  })
  .meta({ id: 'SignupRequest' });
export type SignupRequest = z.infer<typeof SignupRequest>;

/** A status answer of the enumeration-safe surfaces (`verification_sent`, `reset_sent`, …). */
const StatusAnswer = (value: string, id: string) => z.object({ status: z.literal(value) }).meta({ id });

export const VerificationSent = StatusAnswer('verification_sent', 'VerificationSent');
export const ResetSent = StatusAnswer('reset_sent', 'ResetSent');
export const ConfirmationSent = StatusAnswer('confirmation_sent', 'ConfirmationSent');

/** POST /v1/auth/verify. */
export const VerifyRequest = z.object({ token: z.string().min(1).max(200) }).meta({ id: 'VerifyRequest' });
/** Bodies that carry only an email address. */
export const EmailRequest = z.object({ email: EmailAddress }).meta({ id: 'EmailRequest' });

/** GET /v1/auth/signup-mode (ROUTES.md). */
export const SignupMode = z
  .object({ mode: z.enum(['open', 'invite', 'closed']), waitlist: z.boolean() })
  .meta({ id: 'SignupMode' });
export type SignupMode = z.infer<typeof SignupMode>;

/** Waitlist confirmation answer. */
export const WaitlistConfirmed = z
  .object({ status: z.literal('confirmed'), email: z.email() })
  .meta({ id: 'WaitlistConfirmed' });

/** POST /v1/auth/login (ROUTES.md). */
export const LoginRequest = z
  .object({
    email: EmailAddress,
    password: z.string().min(1, 'is required').max(1024),
    totp_code: z.string().max(16).optional().meta({ description: 'Authenticator code when TOTP is on.' }),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /v1/auth/password (spec 4.8). */
export const PasswordChangeRequest = z
  .object({
    current_password: z.string().max(1024).optional().meta({
      description: 'Required when the account has a password.',
    }),
    new_password: Password,
  })
  .meta({ id: 'PasswordChangeRequest' });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

/** POST /v1/auth/password/reset/confirm (ROUTES.md). */
export const PasswordResetConfirmRequest = z
  .object({ token: z.string().min(1).max(200), new_password: Password })
  .meta({ id: 'PasswordResetConfirmRequest' });

/** `{revoked: n}` answers: sessions signed out. */
export const RevokedCount = z.object({ revoked: z.number().int().min(0) }).meta({ id: 'RevokedCount' });

/** A signed-in session as listed (ROUTES.md). */
export const SessionRecord = z
  .object({
    id: z.uuid(),
    current: z.boolean(),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    user_agent: z.string(),
    ip: z.string(),
    method: z.string().meta({ description: '`password`, `passkey` or `recovery`.' }),
  })
  .meta({ id: 'Session' });
export type SessionRecord = z.infer<typeof SessionRecord>;
export const SessionList = z.object({ sessions: z.array(SessionRecord) }).meta({ id: 'SessionList' });

/** An API token record; never holds the secret (spec 4.9, 5.3). */
export const TokenRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(Scope),
    prefix: z.string().meta({ description: 'First characters of the secret, to recognise it.' }),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime().nullable(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Token' });
export type TokenRecord = z.infer<typeof TokenRecord>;

/** POST /v1/tokens body. */
export const TokenCreate = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
    scopes: z.array(Scope).min(1, 'must name at least one scope').meta({
      description:
        'What the token may do. Each scope grants only what it names: profiles:write changes profiles but does not read them, so a token that reads and changes profiles needs both profiles:read and profiles:write.',
    }),
    expires_at: z.iso
      .datetime({ offset: true, message: 'must be an RFC 3339 date-time' })
      .nullable()
      .optional()
      .meta({ description: 'Optional expiry; null or omitted never expires.' }),
  })
  .meta({ id: 'TokenCreate' });
export type TokenCreate = z.infer<typeof TokenCreate>;

/** POST /v1/tokens answer: the record and the secret, shown this once. */
export const TokenCreated = z
  .object({ token: TokenRecord, secret: z.string().meta({ description: '`svc_` and 52 characters.' }) })
  .meta({ id: 'TokenCreated' });
export const TokenList = z
  .object({ tokens: z.array(TokenRecord), next_cursor: z.string().nullable() })
  .meta({ id: 'TokenList' });
