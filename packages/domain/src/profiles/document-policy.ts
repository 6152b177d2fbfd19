import type { Allowance } from '../policies/allowance.schemas.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { DocumentPolicy } from './edge-document.js';
import type { ProfileRecord } from './profile.records.js';

/** The allowances still running at `now` (the end is exclusive), soonest to end first. */
export function activeAllowances(allowances: readonly Allowance[], now: Date): Allowance[] {
  const at = now.getTime();
  return allowances
    .filter((allowance) => Date.parse(allowance.expires_at) > at)
    .sort((a, b) => Date.parse(a.expires_at) - Date.parse(b.expires_at) || a.id.localeCompare(b.id));
}

/**
 * The policy a profile's edge and node documents carry (issue 38): its bedtime and schedule assignments, and
 * the allowances not yet expired when the document is built (the edge ends them by its own clock).
 * `devices` are the profile's devices that override something, kept on the device rows (read with the
 * record, in the same transaction when publishing).
 */
export function documentPolicyOf(
  record: Pick<ProfileRecord, 'bedtime' | 'scheduleAssignments' | 'allowances'>,
  now: Date,
  devices: Readonly<Record<string, DocumentDevicePolicy>> = {},
): DocumentPolicy {
  return {
    bedtime: record.bedtime,
    scheduleAssignments: record.scheduleAssignments,
    allowances: activeAllowances(record.allowances, now).map((allowance) => ({
      domain: allowance.domain,
      service: allowance.service,
      until: allowance.expires_at,
    })),
    devices: { ...devices },
  };
}
