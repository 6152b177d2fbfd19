import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type {
  DeviceSighting,
  DeviceSightingScope,
  DeviceSightingSpan,
  DeviceSightings,
} from './device.ports.js';
import { deviceIdOf, sanitiseDeviceName } from './device-name.js';

/** What the sighting recorder is built from. */
export interface DeviceSightingDependencies {
  uow: ScopedUnitOfWork<DeviceSightingScope>;
  /** Hex SHA-256 of a text (the KeyedHash port's `sha256`), for ids of names that cannot be their own. */
  sha256: (data: string) => string;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Merges a batch into one span per device: many queries of one device in a batch become one write, and the
 * spans come sorted by profile and id so that concurrent batches lock device rows in the same order (no
 * deadlock between them).
 */
export function deviceSightingSpans(
  sightings: readonly DeviceSighting[],
  sha256: (data: string) => string,
): DeviceSightingSpan[] {
  const spans = new Map<string, DeviceSightingSpan>();
  for (const sighting of sightings) {
    if (Number.isNaN(sighting.seenAt.getTime()))
      throw new RangeError('a device sighting has an invalid time');
    const name = sanitiseDeviceName(sighting.name);
    const id = deviceIdOf(name, sha256);
    const key = `${sighting.profileId}\u0000${id}`;
    const span = spans.get(key);
    if (span === undefined) {
      spans.set(key, {
        profileId: sighting.profileId,
        id,
        name,
        identification: sighting.identification,
        transport: sighting.transport,
        firstSeenAt: sighting.seenAt,
        lastSeenAt: sighting.seenAt,
      });
      continue;
    }
    if (sighting.seenAt < span.firstSeenAt) span.firstSeenAt = sighting.seenAt;
    if (sighting.seenAt >= span.lastSeenAt) {
      span.lastSeenAt = sighting.seenAt;
      span.name = name;
      span.identification = sighting.identification;
      span.transport = sighting.transport;
    }
  }
  return [...spans.values()].sort((a, b) => compareText(a.profileId, b.profileId) || compareText(a.id, b.id));
}

/**
 * Records resolvers' device sightings (spec 2.5): sanitises each name, derives the device id, and upserts
 * first_seen, last_seen and transport_last in one transaction per batch. Sightings of profiles that no
 * longer exist are dropped.
 */
export class DeviceSightingRecorder implements DeviceSightings {
  constructor(private readonly deps: DeviceSightingDependencies) {}

  async record(sightings: readonly DeviceSighting[]): Promise<void> {
    const spans = deviceSightingSpans(sightings, this.deps.sha256);
    if (spans.length === 0) return;
    await this.deps.uow.run(async (tx) => {
      for (const span of spans) await tx.devices.recordSighting(span);
    });
  }
}
