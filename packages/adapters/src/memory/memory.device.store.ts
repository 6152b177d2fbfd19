import {
  type DeviceRecord,
  type DeviceRepository,
  type DocumentDevicePolicy,
  documentDevicePolicyOf,
  type StoredDevicePolicy,
} from '@svc/domain';
import { MemoryProfileRows } from './memory-profile-rows.js';

/** Last seen descending, then id descending (code-unit order, as the Postgres "C" collation sorts). */
function mostRecentFirst(a: DeviceRecord, b: DeviceRecord): number {
  const difference = b.lastSeen.getTime() - a.lastSeen.getTime();
  if (difference !== 0) return difference;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** A device row with its policy and pause (issue 38), which device reads leave out. */
type DeviceRow = DeviceRecord & { stored?: StoredDevicePolicy };

/** The device as reads answer it, a copy without its policy. */
function recordOf({ stored: _stored, ...record }: DeviceRow): DeviceRecord {
  return structuredClone(record);
}

/**
 * Devices of an engine-free server, keyed by profile and id; rows are copied in and out and snapshot for
 * transaction rollback. Sightings of profiles that do not exist are dropped, as the Postgres foreign key
 * keeps them out.
 */
export class MemoryDeviceStore extends MemoryProfileRows<DeviceRow> {
  /** @param profileExists whether a profile of any organisation has this id. */
  constructor(private readonly profileExists: (profileId: string) => boolean) {
    super();
  }

  repository(): DeviceRepository {
    const keyOf = (profileId: string, id: string) => `${profileId}\u0000${id}`;
    return {
      recordSighting: async (span) => {
        if (!this.profileExists(span.profileId)) return false;
        const key = keyOf(span.profileId, span.id);
        const row = this.rows.get(key);
        if (row === undefined) {
          this.rows.set(key, {
            profileId: span.profileId,
            id: span.id,
            name: span.name,
            displayName: null,
            kind: 'other',
            notes: '',
            identification: span.identification,
            transportLast: span.transport,
            firstSeen: new Date(span.firstSeenAt),
            lastSeen: new Date(span.lastSeenAt),
          });
          return true;
        }
        const later = span.lastSeenAt >= row.lastSeen;
        this.rows.set(key, {
          ...row,
          firstSeen: span.firstSeenAt < row.firstSeen ? new Date(span.firstSeenAt) : row.firstSeen,
          name: later ? span.name : row.name,
          identification: later ? span.identification : row.identification,
          transportLast: later ? span.transport : row.transportLast,
          lastSeen: later ? new Date(span.lastSeenAt) : row.lastSeen,
        });
        return true;
      },
      find: async (profileId, id) => {
        const row = this.rows.get(keyOf(profileId, id));
        return row === undefined ? null : recordOf(row);
      },
      findPolicy: async (profileId, id) => {
        const row = this.rows.get(keyOf(profileId, id));
        if (row === undefined) return null;
        return structuredClone(row.stored ?? { policy: {}, pausedUntil: null });
      },
      savePolicy: async (profileId, id, stored) => {
        const key = keyOf(profileId, id);
        const row = this.rows.get(key);
        if (row === undefined) return false;
        this.rows.set(key, { ...row, stored: structuredClone(stored) });
        return true;
      },
      documentPolicies: async (profileId) => {
        const policies: Record<string, DocumentDevicePolicy> = {};
        for (const row of this.rows.values()) {
          if (row.profileId !== profileId || row.stored === undefined) continue;
          const entry = documentDevicePolicyOf(row.stored.policy, row.stored.pausedUntil);
          if (entry !== null) policies[row.id] = structuredClone(entry);
        }
        return policies;
      },
      saveOverrides: async (profileId, id, overrides) => {
        const key = keyOf(profileId, id);
        const row = this.rows.get(key);
        if (row === undefined) return false;
        this.rows.set(key, { ...row, ...overrides });
        return true;
      },
      delete: async (profileId, id) => this.rows.delete(keyOf(profileId, id)),
      list: async (profileId, page) =>
        [...this.rows.values()]
          .filter((row) => {
            if (row.profileId !== profileId) return false;
            const after = page.after;
            if (after === null) return true;
            const difference = row.lastSeen.getTime() - after.lastSeen.getTime();
            return difference < 0 || (difference === 0 && row.id < after.id);
          })
          .sort(mostRecentFirst)
          .slice(0, page.limit)
          .map(recordOf),
    };
  }
}
