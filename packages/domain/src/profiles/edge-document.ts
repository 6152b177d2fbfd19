import { ECS_OPERATOR_CAP_DEFAULT, type EcsOperatorCap, ecsModePrefix } from '../ecs/ecs.js';
import type { DocumentAllowance } from '../policies/allowance.schemas.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { ScheduleAssignment } from '../policies/schedule-assignment.schemas.js';
import type {
  EdgeProfileCore,
  EdgeProfileDocument,
  EdgeProfileEcs,
  EdgeTombstone,
} from './edge-document.schemas.js';
import type { ProfileRecord } from './profile.records.js';

/**
 * Issue 38's policy as documents carry it: the bedtime and schedule assignments (of the schedules resource),
 * the timed allowances not yet expired, and the devices that override something, by device id.
 */
export interface DocumentPolicy {
  bedtime: string | null;
  scheduleAssignments: readonly ScheduleAssignment[];
  allowances: readonly DocumentAllowance[];
  devices: Readonly<Record<string, DocumentDevicePolicy>>;
}

/** A profile with no bedtime, assignments, allowances or device overrides. */
export const NO_DOCUMENT_POLICY: DocumentPolicy = Object.freeze({
  bedtime: null,
  scheduleAssignments: [],
  allowances: [],
  devices: {},
});

/** Bus subject of a profile's documents: the edge subscribes per profile (spec 6.3). */
export function profileSubject(id: string): string {
  return `profiles.${id}`;
}

/**
 * What a resolver needs to apply the profile's ECS mode (spec 2.3): the mode, the operator's cap, and the
 * longest source prefix per family that the two allow together ({@link ecsModePrefix}); a client's own option
 * is then forwarded no wider than that, and its /0 opt-out always honoured (`forwardedEcs`).
 */
function edgeEcsPart(mode: ProfileRecord['settings']['ecs'], cap: EcsOperatorCap): EdgeProfileEcs {
  return {
    mode,
    operator_cap: { v4: cap.v4, v6: cap.v6 },
    source_prefix: { v4: ecsModePrefix(mode, 4, cap), v6: ecsModePrefix(mode, 6, cap) },
  };
}

/**
 * The fields every profile document starts with, in this order (documents are signed and compared as bytes). A
 * suspended profile resolves without filtering, rules, lists, rewrites, security or parental controls, and
 * without logging: the document says so explicitly, and never carries the operator's reason. A pause is carried
 * as stored, even once past: the edge compares it with each query's time.
 */
export function edgeProfileCore(
  profile: ProfileRecord,
  ecsOperatorCap: EcsOperatorCap = ECS_OPERATOR_CAP_DEFAULT,
  policy: DocumentPolicy = NO_DOCUMENT_POLICY,
): EdgeProfileCore {
  return {
    kind: 'profile',
    id: profile.id,
    version: profile.version,
    suspended: profile.suspended,
    filtering: !profile.suspended,
    paused_until: profile.pausedUntil?.toISOString() ?? null,
    logging: !profile.suspended && profile.settings.logs_enabled,
    security: profile.security,
    parental: profile.parental,
    settings: profile.settings,
    ecs: edgeEcsPart(profile.settings.ecs, ecsOperatorCap),
    rules: profile.rules,
    schedules: profile.schedules,
    bedtime: policy.bedtime,
    schedule_assignments: [...policy.scheduleAssignments],
    allowances: [...policy.allowances],
    devices: { ...policy.devices },
  };
}

/**
 * The full profile document published to the edge after every write (spec 1.4, 6.3). `linkedIps` are the
 * addresses linked to the profile: the edge maps Do53 clients by them.
 */
export function edgeProfileDocument(
  profile: ProfileRecord,
  linkedIps: readonly string[],
  ecsOperatorCap: EcsOperatorCap = ECS_OPERATOR_CAP_DEFAULT,
  policy: DocumentPolicy = NO_DOCUMENT_POLICY,
): EdgeProfileDocument {
  return {
    ...edgeProfileCore(profile, ecsOperatorCap, policy),
    lists: profile.lists,
    updated_at: profile.updatedAt.toISOString(),
    linked_ips: [...linkedIps],
  };
}

/** The document that tells the edge a profile is gone (deleted, or tombstoned by an account deletion). */
export function edgeTombstone(id: string, version: number, at: Date): EdgeTombstone {
  return { kind: 'tombstone', id, version, deleted_at: at.toISOString() };
}
