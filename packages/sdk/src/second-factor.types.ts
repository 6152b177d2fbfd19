import type {
  RecoveryCodesRemaining as RecoveryCodesRemainingSchema,
  RecoveryCodes as RecoveryCodesSchema,
  RecoveryConfirmRequest as RecoveryConfirmRequestSchema,
  RecoverySent as RecoverySentSchema,
  TotpDisabled as TotpDisabledSchema,
  TotpEnabled as TotpEnabledSchema,
  TotpEnrolment as TotpEnrolmentSchema,
  TotpStatus as TotpStatusSchema,
} from '@svc/domain';
import type { SchemaInput, SchemaOutput } from './schema-types.js';

/** POST /v1/auth/totp answer: the base32 `secret` and its `otpauth_uri` for a QR code. */
export type TotpEnrolment = SchemaOutput<typeof TotpEnrolmentSchema>;
/** POST /v1/auth/totp/confirm answer; `recovery_codes` only with the account's first second factor. */
export type TotpEnabled = SchemaOutput<typeof TotpEnabledSchema>;
/** POST /v1/auth/totp/disable answer: `{enabled: false}`. */
export type TotpDisabled = SchemaOutput<typeof TotpDisabledSchema>;
/** GET /v1/auth/totp answer: `{enabled, enabled_at}`. */
export type TotpStatus = SchemaOutput<typeof TotpStatusSchema>;
/** GET /v1/auth/recovery-codes answer: `{remaining}`. */
export type RecoveryCodesRemaining = SchemaOutput<typeof RecoveryCodesRemainingSchema>;
/** POST /v1/auth/recovery-codes answer: ten new codes, shown this once. */
export type RecoveryCodes = SchemaOutput<typeof RecoveryCodesSchema>;
/** POST /v1/auth/recovery answer: `{status: "recovery_sent"}`, whether or not the account exists. */
export type RecoverySent = SchemaOutput<typeof RecoverySentSchema>;
/** Body of POST /v1/auth/recovery/confirm: the emailed `rec_…` token and one recovery code. */
export type RecoveryConfirmRequest = SchemaInput<typeof RecoveryConfirmRequestSchema>;
