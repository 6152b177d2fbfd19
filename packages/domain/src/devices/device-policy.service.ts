import type { AuditScope, AuditSource } from '../audit/audit.ports.js';
import type { DevicePolicy } from '../policies/device-policy.schemas.js';
import { unknownDevicePolicyReferences } from '../policies/device-policy-references.js';
import type { ProfileWriter, ProfileWriteScope } from '../profiles/profile.ports.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { DeviceRepository, StoredDevicePolicy } from './device.ports.js';

/** What a device policy write uses of a transaction: the profile's versioned write, the device row, the audit. */
type DevicePolicyScope = ProfileWriteScope &
  AuditScope & { devices: Pick<DeviceRepository, 'findPolicy' | 'savePolicy'> };

/** What the device policy use cases are built from. */
export interface DevicePolicyDependencies {
  uow: ScopedUnitOfWork<DevicePolicyScope>;
  /** The profile's versioned write (If-Match, suspension, version bump, publication) and its reads. */
  profiles: ProfileWriter & { get(orgId: string, id: string): Promise<ProfileRecord> };
  clock: Clock;
  /** True when a blocklist id is in the catalogue. */
  isCataloguedList: (listId: number) => boolean;
}

/** A device's policy as GET and PUT answer it, with the profile's version for the ETag. */
export interface DevicePolicyAnswer {
  policy: DevicePolicy;
  version: number;
}

/** A device's pause after POST, with the profile's version for the ETag. */
export interface DevicePauseAnswer {
  pausedUntil: Date;
  version: number;
}

function auditTarget(profileId: string, deviceId: string): string {
  return `profiles/${profileId}/devices/${deviceId}`;
}

/**
 * What a device overrides of its profile, and its own timed pause (issue 38, ADR 0044). Both are kept on the
 * device row; each write is a versioned write of the profile, so its edge and node documents carry the device.
 * An unknown device, or another organisation's, is 404.
 */
export class DevicePolicyService {
  constructor(private readonly deps: DevicePolicyDependencies) {}

  /** GET policy: the device's overrides (`{}` inherits everything). */
  async policy(orgId: string, profileId: string, deviceId: string): Promise<DevicePolicyAnswer> {
    const profile = await this.deps.profiles.get(orgId, profileId);
    const stored = await this.deps.uow.run((tx) => tx.devices.findPolicy(profileId, deviceId));
    if (stored === null) throw notFound('device');
    return { policy: stored.policy, version: profile.version };
  }

  /**
   * PUT policy: replaces the device's overrides; 422 naming each schedule the profile does not have and each
   * service, category or list the catalogues do not know. Audited as `device.policy_replaced`.
   */
  async replacePolicy(
    orgId: string,
    profileId: string,
    deviceId: string,
    policy: DevicePolicy,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<DevicePolicyAnswer> {
    const record = await this.writeDevice(
      orgId,
      profileId,
      deviceId,
      expectedVersion,
      (current, stored) => {
        const names = new Set(current.schedules.map((schedule) => schedule.name));
        const errors = unknownDevicePolicyReferences(policy, names, this.deps.isCataloguedList);
        if (errors.length > 0)
          throw new DomainError('validation_failed', 'The request has invalid fields.', {
            fieldErrors: errors,
          });
        return {
          next: { ...stored, policy },
          audit: { action: 'device.policy_replaced', details: { fields: Object.keys(policy).sort() } },
        };
      },
      source,
    );
    return { policy, version: record.version };
  }

  /** POST pause: the device's own filtering is off for `minutes` from now; audited as `device.paused`. */
  async pause(
    orgId: string,
    profileId: string,
    deviceId: string,
    minutes: number,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<DevicePauseAnswer> {
    const pausedUntil = new Date(this.deps.clock.now().getTime() + minutes * 60_000);
    const record = await this.writeDevice(
      orgId,
      profileId,
      deviceId,
      expectedVersion,
      (_current, stored) => ({
        next: { ...stored, pausedUntil },
        audit: { action: 'device.paused', details: { minutes, paused_until: pausedUntil.toISOString() } },
      }),
      source,
    );
    return { pausedUntil, version: record.version };
  }

  /**
   * DELETE pause: the device's filtering resumes at once. Idempotent: a device that is not paused, or whose
   * pause has passed, answers unchanged (no new version); otherwise audited as `device.resumed`.
   */
  async resume(
    orgId: string,
    profileId: string,
    deviceId: string,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    const profile = await this.deps.profiles.get(orgId, profileId);
    const stored = await this.deps.uow.run((tx) => tx.devices.findPolicy(profileId, deviceId));
    if (stored === null) throw notFound('device');
    if (stored.pausedUntil === null || stored.pausedUntil <= this.deps.clock.now()) return profile;
    return this.writeDevice(
      orgId,
      profileId,
      deviceId,
      expectedVersion,
      (_current, current) => ({
        next: { ...current, pausedUntil: null },
        audit: { action: 'device.resumed', details: {} },
      }),
      source,
    );
  }

  /** A versioned write of the profile that changes one device's stored policy or pause, audited. */
  private writeDevice(
    orgId: string,
    profileId: string,
    deviceId: string,
    expectedVersion: number | undefined,
    change: (
      current: ProfileRecord,
      stored: StoredDevicePolicy,
    ) => {
      next: StoredDevicePolicy;
      audit: {
        action: 'device.policy_replaced' | 'device.paused' | 'device.resumed';
        details: Record<string, unknown>;
      };
    },
    source: AuditSource,
  ): Promise<ProfileRecord> {
    return this.deps.profiles.write(this.deps.uow, orgId, profileId, expectedVersion, async (current, tx) => {
      const stored = await tx.devices.findPolicy(profileId, deviceId);
      if (stored === null) throw notFound('device');
      const { next, audit } = change(current, stored);
      await tx.devices.savePolicy(profileId, deviceId, next);
      await tx.audit.record({
        ...source,
        orgId,
        action: audit.action,
        target: auditTarget(profileId, deviceId),
        details: audit.details,
        at: this.deps.clock.now(),
      });
      return current;
    });
  }
}
