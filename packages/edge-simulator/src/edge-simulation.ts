import { type QueryLogColumns, queryLogRowsOf } from '@svc/adapters';
import type {
  DeviceHourlyCount,
  DeviceSighting,
  HourlyTotal,
  ProfileRules,
  ProfileSettings,
  QueryLogRow,
} from '@svc/domain';
import { SeededRandom, WeightedSampler } from './seeded-random.js';
import type { DecidingProfile } from './simulated-decisions.js';
import { type DeviceState, type SimulatedDevice, simulatedHousehold } from './simulated-household.js';
import type { HourlyCountColumns } from './simulated-log-writer.ports.js';
import {
  ALLOWED_INDEX,
  type DrawnQuery,
  drawAnswer,
  drawnQuery,
  ERROR_INDEX,
  ERROR_RATE,
  QTYPE_SHARES,
  QTYPES,
} from './simulated-query.js';
import {
  type BatchArrays,
  batchColumns,
  emptyBatch,
  type SimulationDictionaries,
} from './simulation-batch.js';
import { SimulationCounts } from './simulation-counts.js';
import { type ProfileTraffic, TrafficModels } from './simulation-traffic.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * Row ids are `run * 10^9 + index` (written as the run's digits followed by the index on nine digits): a run
 * id from 1 to 9,000,000 drawn from the seed keeps them below 2^53.
 */
const RUN_IDS = 9_000_000;
const RUN_SPAN = 1_000_000_000;
const TWO_32 = 4_294_967_296;
/** Most queries a run may simulate (row ids of one run are distinct below this). */
export const SIMULATION_MAX_QUERIES = 500_000_000;
/** Widest window a run may spread its queries over: the longest range of hourly totals (spec section 8). */
export const SIMULATION_MAX_DAYS = 400;
/** Most devices a run may simulate. */
export const SIMULATION_MAX_DEVICES = 1_000;
/** Rows per batch the generator yields. */
const DEFAULT_BATCH = 50_000;
/**
 * Queries whose times are drawn together, then sorted: batches of a size dividing it (writers' batches, the
 * default) hold their rows in time order.
 */
export const SIMULATION_TIME_CHUNK = 2_000_000;
const TIME_CHUNK = SIMULATION_TIME_CHUNK;
/** Share of a device's queries that reach its usual PoP. */
const HOME_POP_RATE = 0.93;

/** What of a profile the simulated edge filters and logs with. */
export interface SimulatedProfile {
  id: string;
  settings: Pick<
    ProfileSettings,
    'block_mode' | 'logs_enabled' | 'log_client_ip' | 'log_domains' | 'log_destination' | 'retention_days'
  >;
  rules: ProfileRules;
  /** The enabled blocklists with their catalogue names. */
  lists: readonly { id: number; name: string }[];
  suspended: boolean;
  /** The compiled lists, when the caller has them (see {@link DecidingProfile}). */
  compiledLists?: DecidingProfile['compiledLists'];
  /** The operator blocks in force (default: the simulation's own). */
  operatorBlocks?: DecidingProfile['operatorBlocks'];
  /** Issue 38's policy, and the device and instant every name is decided as (see {@link DecidingProfile}). */
  policy?: DecidingProfile['policy'];
  decideAs?: DecidingProfile['decideAs'];
}

/** How much traffic to simulate. */
export interface SimulationOptions {
  queries: number;
  days: number;
  devices: number;
  seed: number;
  /** End of the window: queries fall in [now - days, now). */
  now: Date;
  /** Rows per yielded batch (default 50,000). */
  batchSize?: number;
  /**
   * Build per-query rows whatever the destination (for the offline hold of a self-hosted profile's nodes);
   * by default only when the destination keeps them in the cloud.
   */
  buildRows?: boolean;
}

/** Does the simulated edge keep per-query rows of this profile in the cloud? */
export function keepsCloudRows(profile: SimulatedProfile): boolean {
  const destination = profile.settings.log_destination;
  return (
    (destination === 'cloud' || destination === 'both') && profile.settings.logs_enabled && !profile.suspended
  );
}

/** Refuses options outside the limits a run's row ids and counts are sized for. */
function checkOptions(options: SimulationOptions, pops: readonly string[]): void {
  const { queries, days, devices } = options;
  if (!Number.isInteger(queries) || queries < 0 || queries > SIMULATION_MAX_QUERIES)
    throw new RangeError(`queries must be an integer from 0 to ${SIMULATION_MAX_QUERIES}`);
  if (!Number.isInteger(days) || days < 1 || days > SIMULATION_MAX_DAYS)
    throw new RangeError(`days must be an integer from 1 to ${SIMULATION_MAX_DAYS}`);
  if (!Number.isInteger(devices) || devices < 0 || devices > SIMULATION_MAX_DEVICES)
    throw new RangeError(`devices must be an integer from 0 to ${SIMULATION_MAX_DEVICES}`);
  if (pops.length === 0) throw new RangeError('the simulation needs at least one PoP');
}

/**
 * Synthetic traffic of one profile as the edge would record it (spec 2.11 rows): Zipf-distributed names from a
 * realistic pool plus the names the profile's rules target, household devices over DoH, DoH3, DoT and DoQ,
 * decisions of the decision function every edge shares (operator block, allow, deny rule, enabled lists,
 * rewrite: see simulated-decisions.ts), answers in
 * the address space of the names' operators, PoPs from the catalogue, latencies, cache hits and DNSSEC, over
 * the last `days` days with a daily rhythm. The same seed, profile and `now` give the same rows.
 *
 * Iterate {@link batches} once; the counts the edge keeps for every destination ({@link hourlyTotals},
 * {@link deviceCounts}, {@link sightings}) are complete after that.
 */
export class EdgeTrafficSimulation {
  readonly keepsRows: boolean;
  private readonly random: SeededRandom;
  private readonly nameSampler: WeightedSampler;
  private readonly qtypeSampler = new WeightedSampler(QTYPE_SHARES);
  private readonly deviceSampler: WeightedSampler | undefined;
  private readonly deviceStates: DeviceState[];
  private readonly traffic: ProfileTraffic;
  /** Client addresses: none (not logged), the household's, then the mobile devices' own. */
  private readonly clientIps: string[];
  /** Index of the PoP of queries without a device. */
  private readonly anonymousPop: number;
  private readonly counts: SimulationCounts;
  private readonly firstHour: number;
  /** Row ids of this run are this plus the query's index. */
  private readonly rowIdBase: number;
  private readonly hourSampler: WeightedSampler;
  private iterated = false;

  constructor(
    private readonly profile: SimulatedProfile,
    private readonly options: SimulationOptions,
    sha256: (data: string) => string,
    private readonly pops: readonly string[],
    models: TrafficModels = new TrafficModels(),
  ) {
    checkOptions(options, pops);
    const { days, devices, seed } = options;
    this.keepsRows = options.buildRows === true || keepsCloudRows(profile);
    this.random = new SeededRandom(seed);
    this.rowIdBase = (1 + this.random.int(RUN_IDS)) * RUN_SPAN;
    const setup = new SeededRandom(this.random.next32());
    this.traffic = models.traffic(profile);
    this.nameSampler = this.traffic.sampler;
    const household = simulatedHousehold(devices, setup, pops.length, sha256);
    this.deviceStates = household.devices;
    this.clientIps = household.clientIps;
    this.anonymousPop = household.homePop;
    this.firstHour = Math.floor((options.now.getTime() - days * DAY_MS) / HOUR_MS);
    this.hourSampler = models.hourSampler(days, this.firstHour);
    this.counts = new SimulationCounts(profile.id, this.firstHour, days, this.deviceStates);
    this.deviceSampler =
      devices === 0
        ? undefined
        : new WeightedSampler(Array.from({ length: devices }, (_unused, rank) => 1 / (rank + 1) ** 0.8));
  }

  /** The simulated devices (empty when the run has none: queries then carry no device, over Do53). */
  get devices(): readonly SimulatedDevice[] {
    return this.deviceStates.map(({ id, rawName, name, transport, identification }) => ({
      id,
      rawName,
      name,
      transport,
      identification,
    }));
  }

  /**
   * The queries in batches of row objects (rows in no particular order): {@link columnBatches} as rows.
   */
  *batches(): Generator<QueryLogRow[]> {
    for (const batch of this.columnBatches()) yield queryLogRowsOf(batch);
  }

  /**
   * The queries in batches, column by column (rows in no particular order). Per-query rows are built only
   * when the profile's destination keeps them ({@link keepsRows}); otherwise no batch is yielded while the
   * counts still add up.
   */
  *columnBatches(): Generator<QueryLogColumns> {
    if (this.iterated) throw new Error('a simulation is iterated once');
    this.iterated = true;
    const { queries } = this.options;
    const batchSize = Math.max(1, Math.min(queries, this.options.batchSize ?? DEFAULT_BATCH));
    const dictionaries = this.dictionaries();
    const query = drawnQuery();
    let batch = emptyBatch(batchSize);
    let filled = 0;
    // The times of TIME_CHUNK queries are drawn first and sorted, so that a batch within a chunk holds its rows
    // in the store's key order (time, then row id) and the store finds them sorted instead of sorting them.
    // Chunks do not depend on the batch size: the same seed gives the same rows whatever the batches.
    const times = new Float64Array(Math.min(queries, TIME_CHUNK));
    for (let index = 0; index < queries; index += 1) {
      const inChunk = index % TIME_CHUNK;
      if (inChunk === 0) this.drawTimes(times.subarray(0, Math.min(TIME_CHUNK, queries - index)));
      this.drawQuery(query, times[inChunk] as number);
      if (!this.keepsRows) continue;
      this.fillRow(batch, filled, this.rowIdBase + index, query);
      filled += 1;
      if (filled === batchSize) {
        yield batchColumns(batch, filled, dictionaries);
        batch = emptyBatch(batchSize);
        filled = 0;
      }
    }
    if (filled > 0) yield batchColumns(batch, filled, dictionaries);
  }

  /** Fills `times` with sorted query times: an hour by the daily rhythm, then a time within it. */
  private drawTimes(times: Float64Array): void {
    const end = this.options.now.getTime();
    const start = end - this.options.days * DAY_MS;
    for (let at = 0; at < times.length; at += 1) {
      // The partial hours at both ends of the window are redrawn.
      let ms: number;
      do {
        ms =
          (this.firstHour + this.hourSampler.sample(this.random)) * HOUR_MS +
          Math.floor(this.random.float() * HOUR_MS);
      } while (ms < start || ms >= end);
      times[at] = ms;
    }
    times.sort();
  }

  /** Draws the query at `ms` (device, name, type, failure, answer) into `query` and counts it. */
  private drawQuery(query: DrawnQuery, ms: number): void {
    const random = this.random;
    query.ms = ms;
    query.deviceIndex = this.deviceSampler === undefined ? -1 : this.deviceSampler.sample(random);
    query.nameIndex = this.nameSampler.sample(random);
    query.qtype = QTYPES[this.qtypeSampler.sample(random)] as number;
    query.failed = random.float() < ERROR_RATE;
    query.statusIndex = query.failed ? ERROR_INDEX : (this.traffic.statusIndexes[query.nameIndex] as number);
    this.counts.add(ms, query.statusIndex, query.deviceIndex);
    drawAnswer(query, random, this.traffic);
    query.popDraw = random.float();
    query.ipDraw = random.float();
  }

  /** Writes a drawn query as row `row` of the batch. */
  private fillRow(batch: BatchArrays, row: number, rowId: number, query: DrawnQuery): void {
    const { deviceIndex, nameIndex, statusIndex } = query;
    const device = deviceIndex < 0 ? undefined : (this.deviceStates[deviceIndex] as DeviceState);
    const high = Math.floor(rowId / TWO_32);
    batch.ts[row] = query.ms;
    batch.rowId[2 * row] = rowId - high * TWO_32;
    batch.rowId[2 * row + 1] = high;
    batch.pop[row] = this.popOf(device, query.popDraw);
    batch.device[row] = deviceIndex + 1;
    batch.clientIp[row] = !this.profile.settings.log_client_ip
      ? 0
      : device === undefined
        ? 1
        : device.mobile && query.ipDraw < 0.35
          ? device.mobileIpCode
          : 1;
    batch.name[row] = nameIndex;
    // The code past the last decision is the undecided one (a failed query has no reason).
    batch.decision[row] = query.failed ? this.traffic.decisions.length : nameIndex;
    batch.qtype[row] = query.qtype;
    batch.status[row] = statusIndex;
    batch.rcode[row] = query.rcode;
    batch.dnssec[row] = statusIndex === ALLOWED_INDEX ? (this.traffic.validated[nameIndex] as number) : 0;
    batch.cacheHit[row] = query.cacheHit ? 1 : 0;
    batch.latency[row] = query.latencyUs;
    batch.answers[row] = query.answers;
  }

  /** The PoP of a query (its index in the PoPs): the device's usual one mostly, else any (`draw` uniform in [0, 1)). */
  private popOf(device: DeviceState | undefined, draw: number): number {
    if (device === undefined) return this.anonymousPop;
    if (draw < HOME_POP_RATE) return device.pop;
    const index = Math.floor(((draw - HOME_POP_RATE) / (1 - HOME_POP_RATE)) * this.pops.length);
    return index < this.pops.length ? index : device.pop;
  }

  /** The dictionaries of this simulation's batches, built once. */
  private dictionaries(): SimulationDictionaries {
    const settings = this.profile.settings;
    const traffic = this.traffic;
    return {
      profileId: [this.profile.id],
      pops: this.pops,
      deviceIds: ['', ...this.deviceStates.map((device) => device.id)],
      deviceNames: ['', ...this.deviceStates.map((device) => device.name)],
      transports: ['do53', ...this.deviceStates.map((device) => device.transport)],
      clientIps: this.clientIps,
      qnames: settings.log_domains ? traffic.qnames : traffic.hiddenQnames,
      listIds: traffic.listIds,
      listNames: traffic.listNames,
      rules: settings.log_domains ? traffic.rules : traffic.operatorRules,
      operatorCodes: traffic.operatorCodes,
      decidedBys: traffic.decidedBys,
      answers: traffic.answers,
      nameV4: traffic.nameV4,
      nameV6: traffic.nameV6,
      rewriteV4: traffic.rewriteV4,
      rewriteV6: traffic.rewriteV6,
    };
  }

  /** Hourly totals by status, as the edge counts them for every destination (after iterating). */
  hourlyTotals(): HourlyTotal[] {
    return this.counts.hourlyTotals();
  }

  /** Per-device hourly query and block counts (after iterating). */
  deviceCounts(): DeviceHourlyCount[] {
    return this.counts.deviceCounts();
  }

  /**
   * The hourly totals and per-device counts column by column (after iterating), in the tables' key order:
   * the same counts as {@link hourlyTotals} and {@link deviceCounts} without an object per hour.
   */
  countColumns(): HourlyCountColumns {
    return this.counts.countColumns();
  }

  /** Two sightings per device that queried (its first and last query), as resolvers report them. */
  sightings(): DeviceSighting[] {
    return this.counts.sightings();
  }
}
