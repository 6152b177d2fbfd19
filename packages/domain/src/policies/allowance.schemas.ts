import { z } from 'zod';
import { RulePattern } from '../rules/rules.schemas.js';

/** Longest timed allowance: one day, like a pause. */
const MAX_ALLOWANCE_MINUTES = 1440;
/** The most allowances a profile holds at once (expired ones do not count). */
export const MAX_ACTIVE_ALLOWANCES = 100;

/**
 * POST /v1/profiles/{id}/allowances (issue 38): allow one name (and its subdomains, as an allow rule would) or
 * unblock one parental service for whole minutes from now. Exactly one of `domain` and `service`.
 */
export const AllowanceCreate = z
  .object({
    domain: RulePattern.optional().meta({ description: 'A name to allow, as an allow rule pattern.' }),
    service: z
      .string({ error: 'must be a service id' })
      .regex(/^[a-z0-9-]{1,64}$/, 'must be a service id')
      .optional()
      .meta({ description: 'A parental service id to unblock (GET /v1/parental/services).' }),
    minutes: z
      .number({ error: 'must be a whole number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(MAX_ALLOWANCE_MINUTES, `must be at most ${MAX_ALLOWANCE_MINUTES}`),
  })
  .strict()
  .superRefine((value, context) => {
    if ((value.domain === undefined) === (value.service === undefined))
      context.addIssue({
        code: 'custom',
        message: 'must give exactly one of domain and service',
        path: ['domain'],
      });
  })
  .meta({ id: 'AllowanceCreate' });
export type AllowanceCreate = z.infer<typeof AllowanceCreate>;

/** A timed allowance as the API shows it; it ends by itself at `expires_at` (exclusive). */
export const Allowance = z
  .object({
    id: z.string().meta({ description: 'Allowance id.' }),
    domain: z.string().nullable(),
    service: z.string().nullable(),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Allowance' });
export type Allowance = z.infer<typeof Allowance>;

/** GET /v1/profiles/{id}/allowances: the allowances not yet expired, soonest to end first. */
export const AllowanceList = z.object({ allowances: z.array(Allowance) }).meta({ id: 'AllowanceList' });
export type AllowanceList = z.infer<typeof AllowanceList>;

/** A timed allowance as profile documents carry it: the edge ends it by its own clock. */
export const DocumentAllowance = z.object({
  domain: z.string().nullable(),
  service: z.string().nullable(),
  until: z.iso.datetime(),
});
export type DocumentAllowance = z.infer<typeof DocumentAllowance>;
