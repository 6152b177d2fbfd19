import { type DevicePolicy, type DocumentDevicePolicy, documentDevicePolicyOf } from '@svc/domain';

/** A device that overrides something, as the snapshot's subquery answers it (JSON, so the pause is text). */
export interface DevicePolicySqlRow {
  id: string;
  policy: DevicePolicy;
  paused_until: string | null;
}

/**
 * The profile's devices that override something (0028_device_policies.sql), read in the same statement as the
 * profile row, so a writer's snapshot publishes the devices of the version it read.
 */
export const DEVICE_POLICIES_COLUMN = `COALESCE((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'policy', d.policy,
                 'paused_until', d.paused_until) ORDER BY d.id COLLATE "C")
               FROM devices d WHERE d.profile_id = p.id AND (d.policy <> '{}'::jsonb OR d.paused_until IS NOT NULL)),
               '[]'::jsonb) AS devices`;

/** The documents' devices of the subquery's rows. */
export function devicePoliciesOf(rows: readonly DevicePolicySqlRow[]): Record<string, DocumentDevicePolicy> {
  const policies: Record<string, DocumentDevicePolicy> = {};
  for (const row of rows) {
    const pausedUntil = row.paused_until === null ? null : new Date(row.paused_until);
    const entry = documentDevicePolicyOf(row.policy, pausedUntil);
    if (entry !== null) policies[row.id] = entry;
  }
  return policies;
}
