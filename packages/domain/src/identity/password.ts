import { z } from 'zod';

/** Password length rule of spec 5.5.4, counted in Unicode code points; no other rule, no normalisation. */
const PASSWORD_MIN_CODE_POINTS = 12;
const PASSWORD_MAX_CODE_POINTS = 128;

/** Number of Unicode code points of `value` (a surrogate pair counts once). */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * A password field. A length failure carries the narrower problem code (password_too_short or
 * password_too_long) in its issue params: alone it becomes that code, beside other failures validation_failed.
 */
export const Password = z
  .string()
  .superRefine((value, context) => {
    const length = codePointLength(value);
    if (length < PASSWORD_MIN_CODE_POINTS) {
      context.addIssue({
        code: 'custom',
        message: `must be at least ${PASSWORD_MIN_CODE_POINTS} characters`,
        params: { problem: 'password_too_short' },
      });
    } else if (length > PASSWORD_MAX_CODE_POINTS) {
      context.addIssue({
        code: 'custom',
        message: `must be at most ${PASSWORD_MAX_CODE_POINTS} characters`,
        params: { problem: 'password_too_long' },
      });
    }
  })
  .meta({ description: '12 to 128 Unicode code points; no other rule; used exactly as sent.' });
