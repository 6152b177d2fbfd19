import { findBlocklist } from '../catalogue/blocklist.catalogue.js';
import type { DeviceSightings } from '../devices/device.ports.js';
import { POP_CATALOGUE } from '../meta/pops.catalogue.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.port.js';
import { notFound } from '../shared/domain-error.js';
import type { EdgeLogWriter } from './edge-log-writer.port.js';
import { EdgeTrafficSimulation, type SimulatedProfile } from './edge-simulation.js';
import type { QueryStatus } from './query-log-row.js';

/** What the simulator is built from. */
export interface EdgeSimulatorDependencies {
  /** The profile with this id whatever its organisation (an operator's command), or null. */
  findProfile(id: string): Promise<ProfileRecord | null>;
  writer: EdgeLogWriter;
  sightings: DeviceSightings;
  clock: Clock;
  /** Hex SHA-256 of a text (the KeyedHash port's `sha256`), for device ids. */
  sha256: (data: string) => string;
}

/** One `svc simulate` run. */
export interface SimulationRequest {
  profileId: string;
  queries: number;
  days: number;
  devices: number;
  seed: number;
}

/** What a run wrote. */
export interface SimulationSummary {
  profile_id: string;
  destination: string;
  seed: number;
  queries: number;
  /** Per-query rows written to the columnar store (0 unless the destination is cloud or both). */
  rows_written: number;
  retention_days: number;
  /** Queries by status, as written to the hourly totals. */
  totals: Record<QueryStatus, number>;
  /** Hours holding totals. */
  hours: number;
  devices: { id: string; name: string; transport: string }[];
}

/** PoPs that answer queries: the catalogue's, except planned ones. */
export function servingPops(): string[] {
  return POP_CATALOGUE.filter((pop) => pop.status !== 'planned').map((pop) => pop.id);
}

/** The edge's view of a stored profile: its filtering and log settings, rules and enabled lists by name. */
export function simulatedProfileOf(profile: ProfileRecord): SimulatedProfile {
  return {
    id: profile.id,
    settings: profile.settings,
    rules: profile.rules,
    lists: profile.lists.map((id) => ({ id, name: findBlocklist(id)?.name ?? `list ${id}` })),
    suspended: profile.suspended,
  };
}

/**
 * `svc simulate` (RUNNER.md): plays the edge resolvers for one profile. Writes per-query rows where the
 * destination keeps them (cloud, both), and for every destination the hourly totals, the per-device hourly
 * counts and the device sightings. Writing a batch overlaps generating the next.
 */
export class EdgeSimulator {
  constructor(private readonly deps: EdgeSimulatorDependencies) {}

  async run(request: SimulationRequest): Promise<SimulationSummary> {
    const record = await this.deps.findProfile(request.profileId);
    if (record === null) throw notFound('profile');
    const profile = simulatedProfileOf(record);
    const simulation = new EdgeTrafficSimulation(
      profile,
      { ...request, now: this.deps.clock.now() },
      this.deps.sha256,
      servingPops(),
    );
    const retention = record.settings.retention_days;
    let written = 0;
    let pending: Promise<void> = Promise.resolve();
    for (const batch of simulation.batches()) {
      if (batch.length === 0) continue;
      await pending;
      pending = this.deps.writer.writeRows(batch, retention);
      written += batch.length;
    }
    await pending;
    const totals = simulation.hourlyTotals();
    await this.deps.writer.writeHourlyTotals(totals);
    await this.deps.writer.writeDeviceCounts(simulation.deviceCounts());
    await this.deps.sightings.record(simulation.sightings());
    const byStatus: Record<QueryStatus, number> = { allowed: 0, blocked: 0, rewritten: 0, error: 0 };
    for (const total of totals) byStatus[total.status] += total.count;
    return {
      profile_id: profile.id,
      destination: record.settings.log_destination,
      seed: request.seed,
      queries: request.queries,
      rows_written: written,
      retention_days: retention,
      totals: byStatus,
      hours: new Set(totals.map((total) => total.hour.getTime())).size,
      devices: simulation.devices.map((device) => ({
        id: device.id,
        name: device.name,
        transport: device.transport,
      })),
    };
  }
}
