import { z } from 'zod';
import { ScheduleAssignment, scheduledTargetKey } from '../policies/schedule-assignment.schemas.js';

/** Days of the week as schedules name them. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The most schedules a profile has (a bedtime, school nights, homework, …, with room to spare). */
const MAX_SCHEDULES = 20;
/** The most windows one schedule has: every day of the week with a few windows each. */
const MAX_SCHEDULE_WINDOWS = 28;

const WALL_TIME_MESSAGE = 'must be a local time HH:MM from 00:00 to 23:59';

/** A local wall time `HH:MM`, 00:00 to 23:59 (a day's end is 00:00 of the next: a window may cross midnight). */
const WallTime = z
  .string({ error: WALL_TIME_MESSAGE })
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, WALL_TIME_MESSAGE)
  .meta({ description: 'Local time HH:MM, 00:00 to 23:59.', example: '21:30' });

/**
 * One weekly window (issue 38): from `start` on each of `days` until `end`, read in the profile's time zone.
 * An `end` earlier than `start` ends the next day (21:00–07:00); an `end` equal to `start` lasts 24 hours.
 * Start is inclusive, end exclusive.
 */
export const ScheduleWindow = z
  .object({
    days: z
      .array(z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(', ')}` }), {
        error: 'must be a list of days',
      })
      .min(1, 'must name at least one day')
      .max(7, 'must name each day at most once')
      .refine((days) => new Set(days).size === days.length, 'must name each day at most once')
      .meta({ description: 'Days the window starts on.' }),
    start: WallTime,
    end: WallTime.meta({
      description:
        'Local time the window ends (exclusive); earlier than start: the next day; equal: 24 hours.',
    }),
  })
  .strict()
  .meta({ id: 'ScheduleWindow' });
export type ScheduleWindow = z.infer<typeof ScheduleWindow>;

/** A named weekly schedule: active whenever one of its windows is. */
export const Schedule = z
  .object({
    name: z
      .string({ error: 'must be a string' })
      .regex(/^[a-z0-9-]{1,32}$/, 'must be 1 to 32 characters a-z, 0-9 or -')
      .meta({
        description: 'Unique within the profile; decisions name it (`schedule:<name>`).',
        example: 'bedtime',
      }),
    windows: z
      .array(ScheduleWindow, { error: 'must be a list of windows' })
      .min(1, 'must have at least one window')
      .max(MAX_SCHEDULE_WINDOWS, `must have at most ${MAX_SCHEDULE_WINDOWS} windows`),
  })
  .strict()
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

/** The most schedule assignments a profile has (one per service, category, list or deny rule it scopes). */
const MAX_ASSIGNMENTS = 500;

/**
 * GET and PUT /v1/profiles/{id}/schedules: the profile's schedules, its bedtime and what each schedule limits or
 * lifts, replaced together (issue 38). Names are unique; the bedtime and every assignment name one of the
 * schedules; one assignment per item. A PUT without `bedtime` or `assignments` clears them.
 */
export const ProfileSchedules = z
  .object({
    schedules: z
      .array(Schedule, { error: 'must be a list of schedules' })
      .max(MAX_SCHEDULES, `must have at most ${MAX_SCHEDULES} schedules`)
      .superRefine((schedules, context) => {
        const seen = new Set<string>();
        schedules.forEach((schedule, index) => {
          if (seen.has(schedule.name))
            context.addIssue({ code: 'custom', message: 'must be unique', path: [index, 'name'] });
          seen.add(schedule.name);
        });
      }),
    bedtime: z.string({ error: 'must be a schedule name or null' }).nullable().default(null).meta({
      description:
        'A schedule during which everything but the allow rules (and timed allowances) is blocked; null for none.',
    }),
    assignments: z
      .array(ScheduleAssignment, { error: 'must be a list of assignments' })
      .max(MAX_ASSIGNMENTS, `must have at most ${MAX_ASSIGNMENTS} assignments`)
      .default([]),
  })
  .strict()
  .superRefine((value, context) => {
    const names = new Set(value.schedules.map((schedule) => schedule.name));
    if (value.bedtime !== null && !names.has(value.bedtime))
      context.addIssue({ code: 'custom', message: 'must name one of the schedules', path: ['bedtime'] });
    const targets = new Set<string>();
    value.assignments.forEach((assignment, index) => {
      if (!names.has(assignment.schedule))
        context.addIssue({
          code: 'custom',
          message: 'must name one of the schedules',
          path: ['assignments', index, 'schedule'],
        });
      const key = scheduledTargetKey(assignment.target);
      if (targets.has(key))
        context.addIssue({
          code: 'custom',
          message: 'must scope each item once',
          path: ['assignments', index, 'target'],
        });
      targets.add(key);
    });
  })
  .meta({ id: 'ProfileSchedules' });
export type ProfileSchedules = z.infer<typeof ProfileSchedules>;
