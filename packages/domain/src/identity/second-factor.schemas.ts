import { z } from 'zod';

/** POST /v1/auth/totp answer (ROUTES.md). */
export const TotpEnrolment = z
  .object({
    secret: z.string().meta({ description: 'Base32 secret for manual entry.' }),
    otpauth_uri: z
      .string()
      .meta({ description: 'otpauth:// URI (RFC 6238, SHA-1, 6 digits, 30 s) for a QR code.' }),
  })
  .meta({ id: 'TotpEnrolment' });

/** A body carrying one authenticator code. */
export const TotpCode = z
  .object({ code: z.string().regex(/^\d{6}$/, 'must be the 6 digits your authenticator app shows') })
  .meta({ id: 'TotpCode' });

/** POST /v1/auth/totp/confirm answer: recovery codes only with the first second factor. */
export const TotpEnabled = z
  .object({ enabled: z.literal(true), recovery_codes: z.array(z.string()).optional() })
  .meta({ id: 'TotpEnabled' });
export const TotpDisabled = z.object({ enabled: z.literal(false) }).meta({ id: 'TotpDisabled' });
/** GET /v1/auth/totp answer: whether the authenticator app is on, so a page shows the state it is in. */
export const TotpStatus = z
  .object({
    enabled: z.boolean(),
    enabled_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When TOTP was turned on; null while it is off.' }),
  })
  .meta({ id: 'TotpStatus' });

export const RecoveryCodesRemaining = z
  .object({ remaining: z.number().int().min(0) })
  .meta({ id: 'RecoveryCodesRemaining' });
export const RecoveryCodes = z
  .object({ recovery_codes: z.array(z.string()).length(10) })
  .meta({ id: 'RecoveryCodes' });

export const RecoverySent = z.object({ status: z.literal('recovery_sent') }).meta({ id: 'RecoverySent' });
export const RecoveryConfirmRequest = z
  .object({
    token: z.string().min(1).max(200),
    recovery_code: z.string().min(1).max(64),
  })
  .meta({ id: 'RecoveryConfirmRequest' });
