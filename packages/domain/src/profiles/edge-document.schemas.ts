import { z } from 'zod';
import { EcsOperatorCap } from '../ecs/ecs.js';
import { DocumentAllowance } from '../policies/allowance.schemas.js';
import { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import { ScheduleAssignment } from '../policies/schedule-assignment.schemas.js';
import { ProfileRules } from '../rules/rules.schemas.js';
import { Schedule } from '../schedules/schedule.schemas.js';
import { ParentalSettings, ProfileSettings, SecuritySettings } from './profile.schemas.js';

/** How the resolver applies the profile's ECS mode, as the edge document carries it (spec 2.3 settings.ecs). */
export const EdgeProfileEcs = z.object({
  mode: ProfileSettings.shape.ecs.unwrap(),
  operator_cap: EcsOperatorCap.meta({ description: 'The operator’s cap on forwarded source prefixes.' }),
  source_prefix: EcsOperatorCap.meta({
    description:
      'Longest source prefix per family the mode and the cap allow together (0: an explicit /0 is sent); a client’s own option is forwarded no wider, and its /0 opt-out always honoured.',
  }),
});
export type EdgeProfileEcs = z.infer<typeof EdgeProfileEcs>;

/**
 * What every profile document carries, for the cloud edge (spec 6.3) and a self-hosted node (spec 4.13) alike,
 * in the order documents are written. Each document adds its lists and where it goes after these fields.
 */
export const EdgeProfileCore = z.object({
  kind: z.literal('profile'),
  id: z.string(),
  version: z.int(),
  suspended: z.boolean(),
  filtering: z.boolean(),
  paused_until: z.iso.datetime().nullable().optional().meta({
    description:
      'End (exclusive) of the owner’s timed pause, as stored (null when not paused): while the query’s time is before it the profile’s own blocking is off, its rewrites still answer, and operator and source blocks still apply. The edge ends the pause by its own clock. Always sent; absent only in documents of servers before it.',
  }),
  logging: z.boolean(),
  security: SecuritySettings,
  parental: ParentalSettings,
  settings: ProfileSettings,
  ecs: EdgeProfileEcs,
  rules: ProfileRules,
  /**
   * Evaluated by the edge with its own clock in `settings.time_zone`: no new document when a window opens. A
   * document written before schedules existed reads none (and its settings, through their defaults, UTC).
   */
  schedules: z.array(Schedule).default([]),
  /** The schedule during which everything but the allow rules and allowances is blocked (issue 38). */
  bedtime: z.string().nullable().default(null),
  /** What each schedule limits or lifts (ProfileSchedules.assignments). */
  schedule_assignments: z.array(ScheduleAssignment).default([]),
  /** Timed allowances not yet expired when the document was written; the edge ends each by its own clock. */
  allowances: z.array(DocumentAllowance).default([]),
  /** Per-device overrides by device id (only devices that override something). */
  devices: z.record(z.string(), DocumentDevicePolicy).default({}),
});
export type EdgeProfileCore = z.infer<typeof EdgeProfileCore>;

/**
 * The profile document published to the cloud edge after every write (spec 1.4, 6.3): the catalogue list ids it
 * enables, and the addresses linked to the profile, by which the edge maps Do53 clients.
 */
export const EdgeProfileDocument = EdgeProfileCore.extend({
  lists: z.array(z.int()),
  updated_at: z.iso.datetime(),
  linked_ips: z.array(z.string()),
});
export type EdgeProfileDocument = z.infer<typeof EdgeProfileDocument>;

/** The document that tells the edge a profile is gone (deleted, or tombstoned by an account deletion). */
export const EdgeTombstone = z.object({
  kind: z.literal('tombstone'),
  id: z.string(),
  version: z.int(),
  deleted_at: z.iso.datetime(),
});
export type EdgeTombstone = z.infer<typeof EdgeTombstone>;

/**
 * What a reader of the profile subject needs of any document published on it: which profile, which version,
 * and whether it is gone. Other fields are not checked, so a reader keeps up with documents that grow.
 */
export const EdgeDocumentHead = z.discriminatedUnion('kind', [
  EdgeProfileCore.pick({ kind: true, id: true, version: true }),
  EdgeTombstone.pick({ kind: true, id: true, version: true }),
]);
