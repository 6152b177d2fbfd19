import { type QueryLogColumns, queryLogRowsOf } from '@svc/adapters';
import {
  type DeviceHourlyCount,
  type DeviceIdentification,
  type DeviceSighting,
  type DeviceTransport,
  deviceIdOf,
  type HourlyTotal,
  type ProfileRules,
  type ProfileSettings,
  QUERY_STATUSES,
  type QueryLogRow,
  sanitiseDeviceName,
} from '@svc/domain';
import { SeededRandom, WeightedSampler } from './seeded-random.js';
import type { DecidingProfile } from './simulated-decisions.js';
import type { HourlyCountColumns } from './simulated-log-writer.ports.js';
import { batchColumns, emptyBatch, type SimulationDictionaries } from './simulation-batch.js';
import {
  ANSWERS_NONE,
  ANSWERS_NULL_V4,
  ANSWERS_NULL_V6,
  ANSWERS_PAGE_V4,
  ANSWERS_PAGE_V6,
  BLOCK_MODES,
  type Decision,
  type ProfileTraffic,
  TrafficModels,
} from './simulation-traffic.js';

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
/** Share of queries failing upstream (SERVFAIL), whatever the name. */
const ERROR_RATE = 0.008;
/** Share of allowed queries answered from the cache. */
const CACHE_HIT_RATE = 0.62;
/** Share of a device's queries that reach its usual PoP. */
const HOME_POP_RATE = 0.93;
/** Query types and their shares: A, AAAA, HTTPS, CNAME, TXT, PTR, SRV, MX. */
const QTYPES = [1, 28, 65, 5, 16, 12, 33, 15];
const QTYPE_SHARES = [0.52, 0.3, 0.1, 0.02, 0.02, 0.015, 0.01, 0.015];
const ERROR_INDEX = QUERY_STATUSES.indexOf('error');
const ALLOWED_INDEX = QUERY_STATUSES.indexOf('allowed');
const BLOCKED_INDEX = QUERY_STATUSES.indexOf('blocked');
const REWRITTEN_INDEX = QUERY_STATUSES.indexOf('rewritten');
/** Status indexes in the order of their names (the hourly totals' sort key). */
const STATUSES_BY_NAME = QUERY_STATUSES.map((_status, index) => index).sort((a, b) =>
  (QUERY_STATUSES[a] as string) < (QUERY_STATUSES[b] as string) ? -1 : 1,
);

/** Household devices: name as the client sends it, and how it connects. */
const DEVICE_TEMPLATES: readonly [name: string, transport: DeviceTransport, mobile: boolean][] = [
  ["Alice's iPhone", 'doh3', true],
  ['living-room-tv', 'dot', false],
  ['Work Laptop', 'doh', false],
  ['Kitchen Speaker', 'doq', false],
  ["Ben's Pixel 8", 'dot', true],
  ['Family iPad', 'doh', false],
  ['home-router', 'dot', false],
  ['Study Desktop', 'doh3', false],
  ["Grandma's Tablet", 'doh', true],
  ['Xbox Series X', 'doq', false],
  ['office-mac', 'doh', false],
  ['Guest Phone', 'doh3', true],
];

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

/** A simulated device. */
export interface SimulatedDevice {
  id: string;
  /** As the client sends it (before sanitising). */
  rawName: string;
  name: string;
  transport: DeviceTransport;
  identification: DeviceIdentification;
}

interface DeviceState extends SimulatedDevice {
  mobile: boolean;
  /** Code of its mobile address in the client IP dictionary (the home address is code 1). */
  mobileIpCode: number;
  /** Index of its usual PoP. */
  pop: number;
  firstSeen: number;
  lastSeen: number;
}

/** Does the simulated edge keep per-query rows of this profile in the cloud? */
export function keepsCloudRows(profile: SimulatedProfile): boolean {
  const destination = profile.settings.log_destination;
  return (
    (destination === 'cloud' || destination === 'both') && profile.settings.logs_enabled && !profile.suspended
  );
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
  private readonly decisions: readonly Decision[];
  private readonly nameSampler: WeightedSampler;
  private readonly qtypeSampler = new WeightedSampler(QTYPE_SHARES);
  private readonly deviceSampler: WeightedSampler | undefined;
  private readonly deviceStates: DeviceState[];
  private readonly traffic: ProfileTraffic;
  /** Client addresses: none (not logged), the household's, then the mobile devices' own. */
  private readonly clientIps: string[];
  /** Index of the PoP of queries without a device. */
  private readonly anonymousPop: number;
  /** Queries by hour of the window and status (hour index × statuses + status index). */
  private readonly hourTotals: Float64Array;
  /** Queries and blocks by hour of the window and device (two numbers per hour and device). */
  private readonly perDevice: Float64Array;
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
    const { queries, days, devices, seed } = options;
    if (!Number.isInteger(queries) || queries < 0 || queries > SIMULATION_MAX_QUERIES)
      throw new RangeError(`queries must be an integer from 0 to ${SIMULATION_MAX_QUERIES}`);
    if (!Number.isInteger(days) || days < 1 || days > SIMULATION_MAX_DAYS)
      throw new RangeError(`days must be an integer from 1 to ${SIMULATION_MAX_DAYS}`);
    if (!Number.isInteger(devices) || devices < 0 || devices > SIMULATION_MAX_DEVICES)
      throw new RangeError(`devices must be an integer from 0 to ${SIMULATION_MAX_DEVICES}`);
    if (pops.length === 0) throw new RangeError('the simulation needs at least one PoP');
    this.keepsRows = options.buildRows === true || keepsCloudRows(profile);
    this.random = new SeededRandom(seed);
    this.rowIdBase = (1 + this.random.int(RUN_IDS)) * RUN_SPAN;
    const setup = new SeededRandom(this.random.next32());
    const traffic = models.traffic(profile);
    this.traffic = traffic;
    this.decisions = traffic.decisions;
    this.nameSampler = traffic.sampler;
    const home = `24.${48 + setup.int(16)}.${setup.int(256)}.${1 + setup.int(254)}`;
    const homePop = setup.int(pops.length);
    this.clientIps = ['', home];
    this.anonymousPop = homePop;
    this.deviceStates = Array.from({ length: devices }, (_unused, index) => {
      const [base, transport, mobile] = DEVICE_TEMPLATES[index % DEVICE_TEMPLATES.length] as [
        string,
        DeviceTransport,
        boolean,
      ];
      const round = Math.floor(index / DEVICE_TEMPLATES.length);
      const rawName = round === 0 ? base : `${base} ${round + 1}`;
      const name = sanitiseDeviceName(rawName);
      let mobileIpCode = 1;
      if (mobile) {
        mobileIpCode = this.clientIps.length;
        this.clientIps.push(
          `2607:fea8:${setup.int(0x10000).toString(16)}:${setup.int(0x10000).toString(16)}::1`,
        );
      }
      return {
        id: deviceIdOf(name, sha256),
        rawName,
        name,
        transport,
        identification: transport === 'dot' || transport === 'doq' ? 'sni' : 'doh_path',
        mobile,
        mobileIpCode,
        pop: homePop,
        firstSeen: Number.POSITIVE_INFINITY,
        lastSeen: Number.NEGATIVE_INFINITY,
      } satisfies DeviceState;
    });
    const firstHour = Math.floor((options.now.getTime() - days * DAY_MS) / HOUR_MS);
    this.firstHour = firstHour;
    this.hourSampler = models.hourSampler(days, firstHour);
    this.hourTotals = new Float64Array((days * 24 + 1) * QUERY_STATUSES.length);
    this.perDevice = new Float64Array((days * 24 + 1) * devices * 2);
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
    const { queries, days, now } = this.options;
    const batchSize = Math.max(1, Math.min(queries, this.options.batchSize ?? DEFAULT_BATCH));
    const random = this.random;
    const settings = this.profile.settings;
    const keep = this.keepsRows;
    const end = now.getTime();
    const start = end - days * DAY_MS;
    const firstHour = Math.floor(start / HOUR_MS);
    const deviceCount = this.deviceStates.length;
    const dictionaries = this.dictionaries();
    // The per-name facts the loop reads, as typed arrays: reading them off the name and decision objects (of
    // several shapes) costs more than the rest of a row.
    const { statusIndexes, blockModes, missing, validated } = this.traffic;
    const { nameV4, nameV6, rewriteV4, rewriteV6 } = dictionaries;
    const undecided = this.decisions.length;
    const totals = this.hourTotals;
    const perDevice = this.perDevice;
    const logClientIp = settings.log_client_ip;
    let batch = emptyBatch(batchSize);
    let filled = 0;
    // The times of TIME_CHUNK queries are drawn first and sorted, so that a batch within a chunk holds its rows
    // in the store's key order (time, then row id) and the store finds them sorted instead of sorting them.
    // Chunks do not depend on the batch size: the same seed gives the same rows whatever the batches.
    const times = new Float64Array(Math.min(queries, TIME_CHUNK));
    let timesStart = 0;
    for (let index = 0; index < queries; index += 1) {
      if (index - timesStart === TIME_CHUNK || index === 0) {
        timesStart = index;
        const drawn = times.subarray(0, Math.min(TIME_CHUNK, queries - index));
        for (let at = 0; at < drawn.length; at += 1) {
          // An hour by the daily rhythm, then a time within it; the partial hours at both ends are redrawn.
          let ms: number;
          do {
            ms =
              (firstHour + this.hourSampler.sample(random)) * HOUR_MS + Math.floor(random.float() * HOUR_MS);
          } while (ms < start || ms >= end);
          drawn[at] = ms;
        }
        drawn.sort();
      }
      const ms = times[index - timesStart] as number;
      const deviceIndex = this.deviceSampler === undefined ? -1 : this.deviceSampler.sample(random);
      const device = deviceIndex < 0 ? undefined : (this.deviceStates[deviceIndex] as DeviceState);
      const nameIndex = this.nameSampler.sample(random);
      const qtype = QTYPES[this.qtypeSampler.sample(random)] as number;
      const failed = random.float() < ERROR_RATE;
      const statusIndex = failed ? ERROR_INDEX : (statusIndexes[nameIndex] as number);

      const hourIndex = Math.floor(ms / HOUR_MS) - firstHour;
      const totalAt = hourIndex * QUERY_STATUSES.length + statusIndex;
      totals[totalAt] = (totals[totalAt] as number) + 1;
      if (device !== undefined) {
        const at = 2 * (hourIndex * deviceCount + deviceIndex);
        perDevice[at] = (perDevice[at] as number) + 1;
        if (statusIndex === BLOCKED_INDEX) perDevice[at + 1] = (perDevice[at + 1] as number) + 1;
        if (ms < device.firstSeen) device.firstSeen = ms;
        if (ms > device.lastSeen) device.lastSeen = ms;
      }

      let rcode = 0;
      let answers = ANSWERS_NONE;
      let cacheHit = false;
      let latencyUs: number;
      if (statusIndex === ERROR_INDEX) {
        rcode = 2;
        latencyUs = 800_000 + random.int(3_200_000);
      } else if (statusIndex === ALLOWED_INDEX) {
        cacheHit = random.float() < CACHE_HIT_RATE;
        latencyUs = cacheHit ? 40 + random.int(700) : upstreamLatency(random);
        if (missing[nameIndex] === 1) rcode = 3;
        else if (qtype === 1) answers = nameV4[nameIndex] as number;
        else if (qtype === 28) answers = nameV6[nameIndex] as number;
      } else {
        latencyUs = 30 + random.int(300);
        if (statusIndex === REWRITTEN_INDEX) {
          answers =
            qtype === 1
              ? (rewriteV4[nameIndex] as number)
              : qtype === 28
                ? (rewriteV6[nameIndex] as number)
                : ANSWERS_NONE;
        } else {
          switch (BLOCK_MODES[blockModes[nameIndex] as number]) {
            case 'nxdomain':
              rcode = 3;
              break;
            case 'refused':
              rcode = 5;
              break;
            case 'null':
              answers = qtype === 1 ? ANSWERS_NULL_V4 : qtype === 28 ? ANSWERS_NULL_V6 : ANSWERS_NONE;
              break;
            case 'block-page':
              answers = qtype === 1 ? ANSWERS_PAGE_V4 : qtype === 28 ? ANSWERS_PAGE_V6 : ANSWERS_NONE;
              break;
          }
        }
      }
      const popDraw = random.float();
      const ipDraw = random.float();
      if (!keep) continue;

      const row = filled;
      const rowId = this.rowIdBase + index;
      const high = Math.floor(rowId / TWO_32);
      batch.ts[row] = ms;
      batch.rowId[2 * row] = rowId - high * TWO_32;
      batch.rowId[2 * row + 1] = high;
      batch.pop[row] = this.popOf(device, popDraw);
      batch.device[row] = deviceIndex + 1;
      batch.clientIp[row] = !logClientIp
        ? 0
        : device === undefined
          ? 1
          : device.mobile && ipDraw < 0.35
            ? device.mobileIpCode
            : 1;
      batch.name[row] = nameIndex;
      batch.decision[row] = failed ? undecided : nameIndex;
      batch.qtype[row] = qtype;
      batch.status[row] = statusIndex;
      batch.rcode[row] = rcode;
      batch.dnssec[row] = statusIndex === ALLOWED_INDEX ? (validated[nameIndex] as number) : 0;
      batch.cacheHit[row] = cacheHit ? 1 : 0;
      batch.latency[row] = latencyUs;
      batch.answers[row] = answers;
      filled += 1;
      if (filled === batchSize) {
        yield batchColumns(batch, filled, dictionaries);
        batch = emptyBatch(batchSize);
        filled = 0;
      }
    }
    if (filled > 0) yield batchColumns(batch, filled, dictionaries);
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
      answers: traffic.answers,
      nameV4: traffic.nameV4,
      nameV6: traffic.nameV6,
      rewriteV4: traffic.rewriteV4,
      rewriteV6: traffic.rewriteV6,
    };
  }

  /** Hourly totals by status, as the edge counts them for every destination (after iterating). */
  hourlyTotals(): HourlyTotal[] {
    const totals: HourlyTotal[] = [];
    const width = QUERY_STATUSES.length;
    for (let hourIndex = 0; hourIndex * width < this.hourTotals.length; hourIndex += 1) {
      QUERY_STATUSES.forEach((status, index) => {
        const count = this.hourTotals[hourIndex * width + index] as number;
        if (count > 0)
          totals.push({
            profileId: this.profile.id,
            hour: new Date((this.firstHour + hourIndex) * HOUR_MS),
            status,
            count,
          });
      });
    }
    return totals;
  }

  /** Per-device hourly query and block counts (after iterating). */
  deviceCounts(): DeviceHourlyCount[] {
    const deviceCount = this.deviceStates.length;
    const counts: DeviceHourlyCount[] = [];
    for (let key = 0; 2 * key < this.perDevice.length; key += 1) {
      const queries = this.perDevice[2 * key] as number;
      if (queries === 0) continue;
      counts.push({
        profileId: this.profile.id,
        deviceId: (this.deviceStates[key % deviceCount] as DeviceState).id,
        hour: new Date((this.firstHour + Math.floor(key / deviceCount)) * HOUR_MS),
        queries,
        blocked: this.perDevice[2 * key + 1] as number,
      });
    }
    return counts;
  }

  /**
   * The hourly totals and per-device counts column by column (after iterating), in the tables' key order:
   * the same counts as {@link hourlyTotals} and {@link deviceCounts} without an object per hour.
   */
  countColumns(): HourlyCountColumns {
    const width = QUERY_STATUSES.length;
    const hours = this.hourTotals.length / width;
    let totalRows = 0;
    for (const count of this.hourTotals) if (count > 0) totalRows += 1;
    const totals = {
      hour: new Uint32Array(totalRows),
      status: new Uint8Array(totalRows),
      count: new Float64Array(totalRows),
    };
    let row = 0;
    for (let hourIndex = 0; hourIndex < hours; hourIndex += 1) {
      const hour = (this.firstHour + hourIndex) * 3_600;
      for (const status of STATUSES_BY_NAME) {
        const count = this.hourTotals[hourIndex * width + status] as number;
        if (count === 0) continue;
        totals.hour[row] = hour;
        totals.status[row] = status;
        totals.count[row] = count;
        row += 1;
      }
    }
    const deviceCount = this.deviceStates.length;
    const perDevice = this.perDevice;
    let deviceRows = 0;
    for (let at = 0; at < perDevice.length; at += 2) if ((perDevice[at] as number) > 0) deviceRows += 1;
    const devices = {
      hour: new Uint32Array(deviceRows),
      device: new Uint16Array(deviceRows),
      queries: new Float64Array(deviceRows),
      blocked: new Float64Array(deviceRows),
    };
    const byId = this.deviceStates
      .map((_device, index) => index)
      .sort((a, b) =>
        (this.deviceStates[a] as DeviceState).id < (this.deviceStates[b] as DeviceState).id ? -1 : 1,
      );
    row = 0;
    for (let hourIndex = 0; hourIndex * deviceCount < perDevice.length / 2; hourIndex += 1) {
      const hour = (this.firstHour + hourIndex) * 3_600;
      for (const device of byId) {
        const at = 2 * (hourIndex * deviceCount + device);
        const queries = perDevice[at] as number;
        if (queries === 0) continue;
        devices.hour[row] = hour;
        devices.device[row] = device;
        devices.queries[row] = queries;
        devices.blocked[row] = perDevice[at + 1] as number;
        row += 1;
      }
    }
    return {
      profileId: this.profile.id,
      totals,
      devices,
      deviceIds: this.deviceStates.map((device) => device.id),
    };
  }

  /** Two sightings per device that queried (its first and last query), as resolvers report them. */
  sightings(): DeviceSighting[] {
    return this.deviceStates
      .filter((device) => device.lastSeen >= device.firstSeen)
      .flatMap((device) =>
        [device.firstSeen, device.lastSeen].map((at) => ({
          profileId: this.profile.id,
          name: device.rawName,
          identification: device.identification,
          transport: device.transport,
          seenAt: new Date(at),
        })),
      );
  }
}

/** Upstream resolution time: roughly log-normal around 20 ms, from 2 ms to a few hundred. */
function upstreamLatency(random: SeededRandom): number {
  const gauss = random.float() + random.float() + random.float() - 1.5;
  return Math.max(2_000, Math.round(20_000 * Math.exp(gauss * 1.6)));
}
