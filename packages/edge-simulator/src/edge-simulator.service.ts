import { queryLogRowsOf } from '@svc/adapters';
import {
  type Clock,
  type DeviceSightings,
  documentPolicyOf,
  findBlocklist,
  type NodeLogHoldService,
  notFound,
  POP_CATALOGUE,
  type ProfileRecord,
  QUERY_STATUSES,
  type QueryLogRow,
  type QueryStatus,
} from '@svc/domain';
import {
  EdgeTrafficSimulation,
  keepsCloudRows,
  SIMULATION_TIME_CHUNK,
  type SimulatedProfile,
} from './edge-simulation.js';
import type { SimulatedLogWriter } from './simulated-log-writer.ports.js';
import { TrafficModels } from './simulation-traffic.js';

/**
 * Rows per write: large enough that a run of millions makes few inserts (each adds a part to every day
 * partition it touches, and a part's files cost more than its rows), small enough that the engine's working
 * copy of a batch keeps the command's peak memory under a gigabyte (docs/adr/0017-simulator-bulk-inserts.md).
 * Divides the simulation's time chunk, so each batch comes in time order.
 */
const WRITE_BATCH = SIMULATION_TIME_CHUNK / 2;

/** What the simulator is built from. */
export interface EdgeSimulatorDependencies {
  /** The profile with this id whatever its organisation (an operator's command), or null. */
  findProfile(id: string): Promise<ProfileRecord | null>;
  writer: SimulatedLogWriter;
  sightings: DeviceSightings;
  clock: Clock;
  /** Hex SHA-256 of a text (the KeyedHash port's `sha256`), for device ids. */
  sha256: (data: string) => string;
  /** The offline hold of self-hosted profiles' nodes (engine-backed servers); without it nothing is held. */
  hold?: Pick<NodeLogHoldService, 'holdsFor' | 'hold'>;
}

/** One `svc simulate` run. */
export interface SimulationRequest {
  profileId: string;
  queries: number;
  days: number;
  devices: number;
  seed: number;
  /** Decide every name as this device of the profile (its overrides, issue 38). */
  device?: string;
  /** Decide every name as at this instant (Unix ms): schedules, pauses and allowances as then. */
  at?: number;
}

/** What a run wrote. */
export interface SimulationSummary {
  profile_id: string;
  destination: string;
  seed: number;
  queries: number;
  /** Per-query rows written to the columnar store (0 unless the destination is cloud or both). */
  rows_written: number;
  /**
   * Per-query rows held for the profile's offline nodes (spec 2.3 node_queue_hours): self-hosted and both
   * profiles whose enrolled nodes are all offline, with node_queue_hours above 0.
   */
  rows_held: number;
  retention_days: number;
  /** Queries by status, as written to the hourly totals. */
  totals: Record<QueryStatus, number>;
  /** Hours holding totals. */
  hours: number;
  devices: { id: string; name: string; transport: string }[];
}

/** Rows by time, then row id. */
function oldestFirst(rows: readonly QueryLogRow[]): QueryLogRow[] {
  return [...rows].sort(
    (a, b) => a.ts.getTime() - b.ts.getTime() || (BigInt(a.rowId) < BigInt(b.rowId) ? -1 : 1),
  );
}

/** PoPs that answer queries: the catalogue's, except planned ones. */
export function servingPops(): string[] {
  return POP_CATALOGUE.filter((pop) => pop.status !== 'planned').map((pop) => pop.id);
}

/** The profile's policy as its documents carry it (allowances still running at `at`), with its zone and pause. */
function simulatedPolicyOf(profile: ProfileRecord, at: number): NonNullable<SimulatedProfile['policy']> {
  const policy = documentPolicyOf(profile, new Date(at));
  return {
    time_zone: profile.settings.time_zone,
    schedules: profile.schedules,
    paused_until: profile.pausedUntil?.toISOString() ?? null,
    bedtime: policy.bedtime,
    schedule_assignments: policy.scheduleAssignments,
    allowances: policy.allowances,
    devices: policy.devices,
  };
}

/**
 * The edge's view of a stored profile: its filtering and log settings, rules and enabled lists by name, its
 * schedules, zone and pause, decided as the request's device and instant when it names them.
 */
function simulatedProfileOf(profile: ProfileRecord, request: SimulationRequest, now: Date): SimulatedProfile {
  return {
    id: profile.id,
    settings: profile.settings,
    rules: profile.rules,
    lists: profile.lists.map((id) => ({ id, name: findBlocklist(id)?.name ?? `list ${id}` })),
    suspended: profile.suspended,
    policy: simulatedPolicyOf(profile, request.at ?? now.getTime()),
    decideAs: {
      ...(request.device === undefined ? {} : { device: request.device }),
      ...(request.at === undefined ? {} : { at: request.at }),
    },
  };
}

/**
 * `svc simulate` (RUNNER.md): plays the edge resolvers for one profile. Writes per-query rows where the
 * destination keeps them (cloud, both), holds them for the nodes of a self-hosted or both profile while they
 * are offline (spec 2.3 node_queue_hours), and for every destination the hourly totals, the per-device hourly
 * counts and the device sightings. Writing a batch overlaps generating the next.
 */
export class EdgeSimulator {
  /** Decided pools and hour samplers shared by the runs of this simulator (runs of alike profiles reuse them). */
  private readonly models = new TrafficModels();

  constructor(private readonly deps: EdgeSimulatorDependencies) {}

  async run(request: SimulationRequest): Promise<SimulationSummary> {
    const record = await this.deps.findProfile(request.profileId);
    if (record === null) throw notFound('profile');
    const profile = simulatedProfileOf(record, request, this.deps.clock.now());
    const holding = (await this.deps.hold?.holdsFor(record)) === true;
    const cloud = keepsCloudRows(profile);
    const simulation = new EdgeTrafficSimulation(
      profile,
      {
        ...request,
        now: this.deps.clock.now(),
        buildRows: holding,
        // Held rows go to the hold as row objects: the default batches keep those small.
        ...(holding ? {} : { batchSize: WRITE_BATCH }),
      },
      this.deps.sha256,
      servingPops(),
      this.models,
    );
    const retention = record.settings.retention_days;
    let written = 0;
    let held = 0;
    let pending: Promise<void> = Promise.resolve();
    for (const batch of simulation.columnBatches()) {
      await pending;
      if (cloud) {
        pending = this.deps.writer.writeColumns(batch, retention);
        written += batch.length;
      }
      if (holding && this.deps.hold !== undefined) {
        // Held rows reach the node in the order held: oldest query first within each batch.
        await this.deps.hold.hold(record, oldestFirst(queryLogRowsOf(batch)));
        held += batch.length;
      }
    }
    await pending;
    const counts = simulation.countColumns();
    await this.deps.writer.writeCountColumns([counts]);
    await this.deps.sightings.record(simulation.sightings());
    // The summary reads the columns just written rather than counting the run again.
    const { hour, status, count } = counts.totals;
    const byStatus: Record<QueryStatus, number> = { allowed: 0, blocked: 0, rewritten: 0, error: 0 };
    count.forEach((queries, row) => {
      byStatus[QUERY_STATUSES[status[row] as number] as QueryStatus] += queries;
    });
    return {
      profile_id: profile.id,
      destination: record.settings.log_destination,
      seed: request.seed,
      queries: request.queries,
      rows_written: written,
      rows_held: held,
      retention_days: retention,
      totals: byStatus,
      hours: new Set(hour).size,
      devices: simulation.devices.map((device) => ({
        id: device.id,
        name: device.name,
        transport: device.transport,
      })),
    };
  }
}
