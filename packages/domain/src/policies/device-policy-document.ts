import type { DevicePolicy, DocumentDevicePolicy } from './device-policy.schemas.js';

/**
 * A device's entry in its profile's documents (ADR 0043): its overrides with its pause; null when it overrides
 * nothing (`{}` and never paused or resumed), so documents list only the devices that change something.
 */
export function documentDevicePolicyOf(
  policy: DevicePolicy,
  pausedUntil: Date | null,
): DocumentDevicePolicy | null {
  if (Object.keys(policy).length === 0 && pausedUntil === null) return null;
  return pausedUntil === null ? { ...policy } : { ...policy, paused_until: pausedUntil.toISOString() };
}
