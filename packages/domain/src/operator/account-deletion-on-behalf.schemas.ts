import { z } from 'zod';

/** Printable text: no control characters (it is quoted in audit entries and emails). */
const printable = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, 'must be printable text (no control characters)');

/** POST /v1/admin/accounts/{id}/deletion: why, and the support ticket or data-rights log reference. */
export const AccountDeletionOnBehalf = z
  .object({
    reason: printable(1000).min(1, 'is required').meta({ description: 'Operator-visible only.' }),
    ticket: printable(200)
      .optional()
      .meta({ description: 'Support ticket or data-rights log reference, quoted to the owner.' }),
  })
  .strict()
  .meta({ id: 'AccountDeletionOnBehalf' });
export type AccountDeletionOnBehalf = z.infer<typeof AccountDeletionOnBehalf>;

/** DELETE /v1/admin/accounts/{id}/deletion: the same fields, the reason optional (spec 4.10). */
export const AccountDeletionCancelOnBehalf = z
  .object({
    reason: printable(1000).optional().meta({ description: 'Operator-visible only.' }),
    ticket: printable(200)
      .optional()
      .meta({ description: 'Support ticket or data-rights log reference, quoted as the email’s reference.' }),
  })
  .strict()
  .meta({ id: 'AccountDeletionCancelOnBehalf' });
export type AccountDeletionCancelOnBehalf = z.infer<typeof AccountDeletionCancelOnBehalf>;
