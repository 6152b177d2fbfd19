import type {
  ConfirmationSent as ConfirmationSentSchema,
  PasswordResetConfirmRequest as PasswordResetConfirmRequestSchema,
  ResetSent as ResetSentSchema,
  RevokedCount as RevokedCountSchema,
  SessionList as SessionListSchema,
  TokenCreated as TokenCreatedSchema,
  TokenList as TokenListSchema,
  VerificationSent as VerificationSentSchema,
  WaitlistConfirmed as WaitlistConfirmedSchema,
} from '@svc/domain';
import type { SchemaOutput } from './schema-types.js';

/** 202 answer of signup and resend-verification: `{status: "verification_sent"}` (spec 4.8). */
export type VerificationSent = SchemaOutput<typeof VerificationSentSchema>;
/** 202 answer of a password reset request: `{status: "reset_sent"}`, whether or not the account exists. */
export type ResetSent = SchemaOutput<typeof ResetSentSchema>;
/** 202 answer of joining the waitlist: `{status: "confirmation_sent"}`, whether or not the address is known. */
export type ConfirmationSent = SchemaOutput<typeof ConfirmationSentSchema>;
/** Answer of a waitlist confirmation: `{status: "confirmed", email}`. */
export type WaitlistConfirmed = SchemaOutput<typeof WaitlistConfirmedSchema>;
/** Body of POST /v1/auth/password/reset/confirm: the emailed `rst_…` token and the new password. */
export type PasswordResetConfirmRequest = SchemaOutput<typeof PasswordResetConfirmRequestSchema>;
/** `{revoked: n}`: how many sessions an operation signed out. */
export type RevokedCount = SchemaOutput<typeof RevokedCountSchema>;
/** GET /v1/auth/sessions answer. */
export type SessionList = SchemaOutput<typeof SessionListSchema>;
/** POST /v1/tokens answer: the record and its secret (`svc_` and 52 characters), shown this once only. */
export type TokenCreated = SchemaOutput<typeof TokenCreatedSchema>;
/** One page of GET /v1/tokens: `{tokens, next_cursor}`. */
export type TokenList = SchemaOutput<typeof TokenListSchema>;
