import { z } from 'zod';

/** GET and PATCH /v1/admin/profiles/{id}: the suspension state as operators see it (ROUTES.md). */
export const ProfileSuspension = z
  .object({
    profile_id: z.string(),
    org_id: z.uuid().meta({ description: 'The owning organisation.' }),
    name: z.string(),
    version: z
      .number()
      .int()
      .meta({ description: 'The profile’s version; suspending and reinstating bump it.' }),
    suspended: z.boolean(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Operator-only reason of the current suspension; never shown to the owner.' }),
    suspended_by: z.string().nullable(),
    suspended_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ProfileSuspension' });
export type ProfileSuspension = z.infer<typeof ProfileSuspension>;

/** PATCH /v1/admin/profiles/{id}: suspend with a reason, or reinstate. */
export const ProfileSuspensionPatch = z
  .object({
    suspended: z.boolean(),
    reason: z
      .string()
      .trim()
      .max(1000, 'must be at most 1000 characters')
      .optional()
      .meta({ description: 'Required to suspend; operator-only.' }),
  })
  .strict()
  .superRefine((patch, context) => {
    if (patch.suspended && (patch.reason ?? '') === '') {
      context.addIssue({ code: 'custom', path: ['reason'], message: 'is required to suspend a profile' });
    }
  })
  .meta({ id: 'ProfileSuspensionPatch' });
export type ProfileSuspensionPatch = z.infer<typeof ProfileSuspensionPatch>;
