import { z } from 'zod';
import { RulePattern } from '../rules/rules.schemas.js';

/** A schedule's name as other fields refer to it (the same rule as `Schedule.name`). */
export const ScheduleName = z
  .string({ error: 'must be a schedule name' })
  .regex(/^[a-z0-9-]{1,32}$/, 'must be the name of one of the profile’s schedules')
  .meta({ description: 'The name of one of the profile’s schedules.', example: 'homework' });

/**
 * What a schedule does to the blocking it scopes (issue 38): `only_during` blocks only while the schedule is
 * active (games during homework); `lifted_during` blocks except while it is active (NextDNS's "recreation
 * time": social media blocked but for an evening hour).
 */
export const ScheduleMode = z
  .enum(['only_during', 'lifted_during'], { error: 'must be one of only_during, lifted_during' })
  .meta({
    description:
      '`only_during`: the item blocks only while the schedule is active; `lifted_during`: it blocks except while the schedule is active.',
  });
export type ScheduleMode = z.infer<typeof ScheduleMode>;

const CatalogueId = z.string().regex(/^[a-z0-9-]{1,64}$/, 'must match ^[a-z0-9-]{1,64}$');

/**
 * The blocking a schedule scopes: a parental service or category (of `parental`), a list enabled by id, or one
 * deny rule (by its stored pattern). An assignment whose item the profile does not block has no effect: the
 * schedule limits blocking, it never adds any.
 */
export const ScheduledTarget = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('service'), id: CatalogueId }).strict(),
      z.object({ kind: z.literal('category'), id: CatalogueId }).strict(),
      z
        .object({
          kind: z.literal('list'),
          id: z.number({ error: 'must be a list id' }).int('must be a list id').min(1).max(65_535),
        })
        .strict(),
      z.object({ kind: z.literal('deny'), pattern: RulePattern }).strict(),
    ],
    { error: 'must be a service, category, list or deny target' },
  )
  .meta({ id: 'ScheduledTarget' });
export type ScheduledTarget = z.infer<typeof ScheduledTarget>;

/** One item of blocking limited to, or lifted during, a schedule. */
export const ScheduleAssignment = z
  .object({ target: ScheduledTarget, schedule: ScheduleName, mode: ScheduleMode })
  .strict()
  .meta({ id: 'ScheduleAssignment' });
export type ScheduleAssignment = z.infer<typeof ScheduleAssignment>;

/** The key that makes two assignments the same item (one assignment per item). */
export function scheduledTargetKey(target: ScheduledTarget): string {
  return target.kind === 'deny' ? `deny:${target.pattern}` : `${target.kind}:${target.id}`;
}
