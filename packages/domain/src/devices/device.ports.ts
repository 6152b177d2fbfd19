import type { AuditScope } from '../audit/audit.ports.js';
import type { DevicePolicy, DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { ProfileReadRepository } from '../profiles/profile.ports.js';
import type { DeviceIdentification, DeviceKind, DeviceTransport } from './device.schemas.js';

/** A device as stored, one per (profile, id). */
export interface DeviceRecord {
  profileId: string;
  id: string;
  /** The sanitised name the client sent; the id is derived from it. */
  name: string;
  displayName: string | null;
  kind: DeviceKind;
  /** Empty when unset. */
  notes: string;
  identification: DeviceIdentification;
  transportLast: DeviceTransport | null;
  firstSeen: Date;
  lastSeen: Date;
}

/** What the user may set on a device (PATCH); forgetting the device removes them with it. */
export interface DeviceOverrides {
  displayName: string | null;
  kind: DeviceKind;
  notes: string;
}

/**
 * The sightings of one device in a batch, merged: seen between `firstSeenAt` and `lastSeenAt`, and named,
 * identified and carried as in the latest one.
 */
export interface DeviceSightingSpan {
  profileId: string;
  id: string;
  name: string;
  identification: DeviceIdentification;
  transport: DeviceTransport | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** What a device overrides of its profile's policy, and the end of its own timed pause (issue 38). */
export interface StoredDevicePolicy {
  /** `{}` inherits everything. */
  policy: DevicePolicy;
  /** Exclusive; null when never paused or resumed. Kept after it passes: the edge ends it by its clock. */
  pausedUntil: Date | null;
}

/** A page of a profile's devices, most recently seen first (last_seen descending, id descending). */
export interface DevicePage {
  limit: number;
  after: { lastSeen: Date; id: string } | null;
}

/**
 * Devices inside a transaction. Lookups are by profile: callers have found the profile in the caller's
 * organisation first (another organisation's profile is 404 before any device is read).
 */
export interface DeviceRepository {
  /**
   * Records a device's sightings: a device not stored (never seen, or forgotten) is inserted with first_seen
   * and last_seen from the span and no overrides; a stored one keeps the earlier first_seen and the later
   * last_seen, and takes name, identification and transport when the span is the later. Sightings of a
   * profile that no longer exists are dropped (returns false).
   */
  recordSighting(span: DeviceSightingSpan): Promise<boolean>;
  find(profileId: string, id: string): Promise<DeviceRecord | null>;
  /** Replaces the user's overrides; false when the device is not stored. */
  saveOverrides(profileId: string, id: string, overrides: DeviceOverrides): Promise<boolean>;
  /** The device's policy and pause; null when the device is not stored. */
  findPolicy(profileId: string, id: string): Promise<StoredDevicePolicy | null>;
  /** Replaces the device's policy and pause; false when the device is not stored. */
  savePolicy(profileId: string, id: string, stored: StoredDevicePolicy): Promise<boolean>;
  /**
   * The profile's devices that override something (a policy other than `{}`, or a pause), by device id, as
   * its edge and node documents carry them.
   */
  documentPolicies(profileId: string): Promise<Record<string, DocumentDevicePolicy>>;
  /** Forgets the device (spec 3): the row goes, overrides with it; false when it was not stored. */
  delete(profileId: string, id: string): Promise<boolean>;
  /** The profile's devices after the keyset position. */
  list(profileId: string, page: DevicePage): Promise<DeviceRecord[]>;
}

/** Device reads outside a transaction. */
export const DeviceStore = Symbol.for('svc.DeviceStore');
export type DeviceStore = Pick<DeviceRepository, 'find' | 'list' | 'findPolicy' | 'documentPolicies'>;

/** One query's device facts as a resolver saw them. */
export interface DeviceSighting {
  profileId: string;
  /** The name as the client sent it (DoH path segment or SNI label), before sanitising; may be empty. */
  name: string;
  identification: DeviceIdentification;
  /** Null for a query over none of the encrypted transports. */
  transport: DeviceTransport | null;
  seenAt: Date;
}

/**
 * Where resolvers' device sightings enter (the edge path and `svc simulate`): names are sanitised, ids
 * derived, and first_seen, last_seen and transport_last kept current. A forgotten device seen again is new.
 */
export const DeviceSightings = Symbol.for('svc.DeviceSightings');
export interface DeviceSightings {
  record(sightings: readonly DeviceSighting[]): Promise<void>;
}

/** A device's query counts over a window. */
export interface DeviceActivity {
  queries: number;
  blocked: number;
}

/**
 * Per-device query counts (queries_24h, blocked_24h), answered by the query-log store. Consumer-owned: the
 * device routes need nothing else of that store.
 */
export const DeviceCounts = Symbol.for('svc.DeviceCounts');
export interface DeviceCounts {
  /**
   * Counts of `deviceIds` from `since` until now; a device missing from the map had no queries. Null when
   * counts are unavailable (no query-log store, or it cannot answer now): devices then show null counts.
   */
  countsFor(
    profileId: string,
    deviceIds: readonly string[],
    since: Date,
  ): Promise<ReadonlyMap<string, DeviceActivity> | null>;
}

/** Device counts while no query-log store is wired: always unavailable, so devices show null counts. */
export class UnavailableDeviceCounts implements DeviceCounts {
  async countsFor(): Promise<null> {
    return null;
  }
}

/** What the device use cases use of a transaction: the devices, the owning profile's lock, the audit log. */
export interface DeviceScope extends AuditScope {
  devices: DeviceRepository;
  profiles: ProfileReadRepository;
}

/** What recording sightings uses of a transaction. */
export interface DeviceSightingScope {
  devices: Pick<DeviceRepository, 'recordSighting'>;
}
