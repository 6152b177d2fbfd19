import type { AuditSource } from '../audit/audit.ports.js';
import type { CursorSealer } from '../pagination/pagination.js';
import { pageFrom } from '../pagination/pagination.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import { assertWritable, type ProfileService } from '../profiles/profile.service.js';
import type { Clock } from '../shared/clock.ports.js';
import { notFound } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type {
  DeviceActivity,
  DeviceCounts,
  DeviceOverrides,
  DeviceRecord,
  DeviceScope,
  DeviceStore,
} from './device.ports.js';
import type { Device, DevicePatch } from './device.schemas.js';

/** Window of queries_24h and blocked_24h. */
const COUNT_WINDOW_MS = 24 * 3_600_000;

/** What the device use cases are built from. */
export interface DeviceDependencies {
  uow: ScopedUnitOfWork<DeviceScope>;
  /** Finds the caller's profile (404 for another organisation's). */
  profiles: ProfileService;
  store: DeviceStore;
  counts: DeviceCounts;
  clock: Clock;
  cursors: CursorSealer;
}

/** The reference of a device in audit entries. */
function deviceAuditTarget(profileId: string, deviceId: string): string {
  return `profiles/${profileId}/devices/${deviceId}`;
}

/** The overrides after a PATCH (spec 4.3.1): absent fields unchanged, null or empty clears. */
export function patchedOverrides(current: DeviceOverrides, patch: DevicePatch): DeviceOverrides {
  return {
    displayName:
      patch.display_name === undefined
        ? current.displayName
        : patch.display_name === null || patch.display_name === ''
          ? null
          : patch.display_name,
    kind: patch.kind ?? current.kind,
    notes: patch.notes === undefined ? current.notes : (patch.notes ?? ''),
  };
}

/**
 * Devices of a profile (spec 2.5, 4.3): listed most recently seen first, renamed, kinded and annotated by the
 * user, and forgotten. Changes are refused on a suspended profile (409 profile_suspended) and audited in the
 * same transaction. They do not change the profile's version: nothing the edge resolves with changes.
 */
export class DeviceService {
  constructor(private readonly deps: DeviceDependencies) {}

  /** The public device; counts are null when unavailable (and always in a PATCH answer, spec 4.3.5). */
  view(record: DeviceRecord, activity: DeviceActivity | null): Device {
    return {
      id: record.id,
      name: record.name,
      display_name: record.displayName,
      label: record.displayName ?? (record.name !== '' ? record.name : record.id),
      kind: record.kind,
      notes: record.notes,
      identification: record.identification,
      transport_last: record.transportLast,
      first_seen: record.firstSeen.toISOString(),
      last_seen: record.lastSeen.toISOString(),
      queries_24h: activity?.queries ?? null,
      blocked_24h: activity?.blocked ?? null,
    };
  }

  async list(
    orgId: string,
    profileId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ devices: Device[]; next_cursor: string | null }> {
    await this.deps.profiles.get(orgId, profileId);
    const list = `devices:${profileId}`;
    const position = cursor === undefined ? null : this.deps.cursors.open(list, cursor);
    const after =
      position === null ? null : { lastSeen: new Date(String(position.t)), id: String(position.i) };
    const rows = await this.deps.store.list(profileId, { limit: limit + 1, after });
    const page = pageFrom(rows, limit, this.deps.cursors, list, (row) => ({
      t: row.lastSeen.toISOString(),
      i: row.id,
    }));
    const counts = await this.countsOf(profileId, page.items);
    return {
      devices: page.items.map((record) => this.view(record, this.activityOf(counts, record.id))),
      next_cursor: page.nextCursor,
    };
  }

  async get(orgId: string, profileId: string, deviceId: string): Promise<Device> {
    await this.deps.profiles.get(orgId, profileId);
    const record = await this.deps.store.find(profileId, deviceId);
    if (record === null) throw notFound('device');
    const counts = await this.countsOf(profileId, [record]);
    return this.view(record, this.activityOf(counts, record.id));
  }

  /** PATCH (spec 4.3): the device after the change, with null counts; audited as `device.update`. */
  async update(
    orgId: string,
    profileId: string,
    deviceId: string,
    patch: DevicePatch,
    source: AuditSource,
  ): Promise<Device> {
    return this.deps.uow.run(async (tx) => {
      await this.writableProfile(tx, orgId, profileId);
      const current = await tx.devices.find(profileId, deviceId);
      if (current === null) throw notFound('device');
      const overrides = patchedOverrides(current, patch);
      await tx.devices.saveOverrides(profileId, deviceId, overrides);
      await tx.audit.record({
        ...source,
        orgId,
        action: 'device.update',
        target: deviceAuditTarget(profileId, deviceId),
        details: {
          profile_id: profileId,
          device_id: deviceId,
          changed: {
            ...(patch.display_name === undefined ? {} : { display_name: overrides.displayName }),
            ...(patch.kind === undefined ? {} : { kind: overrides.kind }),
            ...(patch.notes === undefined ? {} : { notes: overrides.notes }),
          },
        },
        at: this.deps.clock.now(),
      });
      return this.view({ ...current, ...overrides }, null);
    });
  }

  /**
   * DELETE (spec 3, 4.3): forgets the device. Its row goes with the display name, kind and notes; logs keep
   * its id, and a device seen again with that name is new. Audited as `device.forget`.
   */
  async forget(orgId: string, profileId: string, deviceId: string, source: AuditSource): Promise<void> {
    await this.deps.uow.run(async (tx) => {
      await this.writableProfile(tx, orgId, profileId);
      const current = await tx.devices.find(profileId, deviceId);
      if (current === null || !(await tx.devices.delete(profileId, deviceId))) throw notFound('device');
      await tx.audit.record({
        ...source,
        orgId,
        action: 'device.forget',
        target: deviceAuditTarget(profileId, deviceId),
        details: {
          profile_id: profileId,
          device_id: deviceId,
          name: current.name,
          display_name: current.displayName,
        },
        at: this.deps.clock.now(),
      });
    });
  }

  /** The caller's profile, locked so that a suspension or deletion cannot interleave with the change. */
  private async writableProfile(tx: DeviceScope, orgId: string, profileId: string): Promise<ProfileRecord> {
    const profile = await tx.profiles.find(orgId, profileId, { forUpdate: true });
    if (profile === null) throw notFound('profile');
    assertWritable(profile);
    return profile;
  }

  private countsOf(
    profileId: string,
    records: readonly DeviceRecord[],
  ): Promise<ReadonlyMap<string, DeviceActivity> | null> {
    if (records.length === 0) return Promise.resolve(new Map());
    const since = new Date(this.deps.clock.now().getTime() - COUNT_WINDOW_MS);
    return this.deps.counts.countsFor(
      profileId,
      records.map((record) => record.id),
      since,
    );
  }

  private activityOf(
    counts: ReadonlyMap<string, DeviceActivity> | null,
    deviceId: string,
  ): DeviceActivity | null {
    if (counts === null) return null;
    return counts.get(deviceId) ?? { queries: 0, blocked: 0 };
  }
}
