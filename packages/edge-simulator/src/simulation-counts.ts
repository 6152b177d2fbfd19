import { type DeviceHourlyCount, type DeviceSighting, type HourlyTotal, QUERY_STATUSES } from '@svc/domain';
import type { DeviceState } from './simulated-household.js';
import type { HourlyCountColumns } from './simulated-log-writer.ports.js';

// What the edge counts for every destination, whether or not it keeps per-query rows: hourly totals by
// status, hourly queries and blocks by device, and when each device was first and last seen.

const HOUR_MS = 3_600_000;
const BLOCKED_INDEX = QUERY_STATUSES.indexOf('blocked');
/** Status indexes in the order of their names (the hourly totals' sort key). */
const STATUSES_BY_NAME = QUERY_STATUSES.map((_status, index) => index).sort((a, b) =>
  (QUERY_STATUSES[a] as string) < (QUERY_STATUSES[b] as string) ? -1 : 1,
);

/** The counts of one simulation, kept in flat typed arrays (one object per hour would cost more than a row). */
export class SimulationCounts {
  /** Queries by hour of the window and status (hour index × statuses + status index). */
  private readonly hourTotals: Float64Array;
  /** Queries and blocks by hour of the window and device (two numbers per hour and device). */
  private readonly perDevice: Float64Array;

  constructor(
    private readonly profileId: string,
    /** The first hour of the window (hours since the epoch): hour indexes count from it. */
    private readonly firstHour: number,
    days: number,
    private readonly devices: readonly DeviceState[],
  ) {
    this.hourTotals = new Float64Array((days * 24 + 1) * QUERY_STATUSES.length);
    this.perDevice = new Float64Array((days * 24 + 1) * devices.length * 2);
  }

  /** Counts one query at `ms`, by the device at `deviceIndex` (-1: none). */
  add(ms: number, statusIndex: number, deviceIndex: number): void {
    const hourIndex = Math.floor(ms / HOUR_MS) - this.firstHour;
    const totalAt = hourIndex * QUERY_STATUSES.length + statusIndex;
    this.hourTotals[totalAt] = (this.hourTotals[totalAt] as number) + 1;
    if (deviceIndex < 0) return;
    const device = this.devices[deviceIndex] as DeviceState;
    const at = 2 * (hourIndex * this.devices.length + deviceIndex);
    const perDevice = this.perDevice;
    perDevice[at] = (perDevice[at] as number) + 1;
    if (statusIndex === BLOCKED_INDEX) perDevice[at + 1] = (perDevice[at + 1] as number) + 1;
    if (ms < device.firstSeen) device.firstSeen = ms;
    if (ms > device.lastSeen) device.lastSeen = ms;
  }

  /** Hourly totals by status, as the edge counts them for every destination. */
  hourlyTotals(): HourlyTotal[] {
    const totals: HourlyTotal[] = [];
    const width = QUERY_STATUSES.length;
    for (let hourIndex = 0; hourIndex * width < this.hourTotals.length; hourIndex += 1) {
      QUERY_STATUSES.forEach((status, index) => {
        const count = this.hourTotals[hourIndex * width + index] as number;
        if (count > 0)
          totals.push({
            profileId: this.profileId,
            hour: new Date((this.firstHour + hourIndex) * HOUR_MS),
            status,
            count,
          });
      });
    }
    return totals;
  }

  /** Per-device hourly query and block counts. */
  deviceCounts(): DeviceHourlyCount[] {
    const deviceCount = this.devices.length;
    const counts: DeviceHourlyCount[] = [];
    for (let key = 0; 2 * key < this.perDevice.length; key += 1) {
      const queries = this.perDevice[2 * key] as number;
      if (queries === 0) continue;
      counts.push({
        profileId: this.profileId,
        deviceId: (this.devices[key % deviceCount] as DeviceState).id,
        hour: new Date((this.firstHour + Math.floor(key / deviceCount)) * HOUR_MS),
        queries,
        blocked: this.perDevice[2 * key + 1] as number,
      });
    }
    return counts;
  }

  /**
   * The hourly totals and per-device counts column by column, in the tables' key order: the same counts as
   * {@link hourlyTotals} and {@link deviceCounts} without an object per hour.
   */
  countColumns(): HourlyCountColumns {
    return {
      profileId: this.profileId,
      totals: this.totalColumns(),
      devices: this.deviceColumns(),
      deviceIds: this.devices.map((device) => device.id),
    };
  }

  /** Two sightings per device that queried (its first and last query), as resolvers report them. */
  sightings(): DeviceSighting[] {
    return this.devices
      .filter((device) => device.lastSeen >= device.firstSeen)
      .flatMap((device) =>
        [device.firstSeen, device.lastSeen].map((at) => ({
          profileId: this.profileId,
          name: device.rawName,
          identification: device.identification,
          transport: device.transport,
          seenAt: new Date(at),
        })),
      );
  }

  /** Hourly totals by hour, then status name. */
  private totalColumns(): HourlyCountColumns['totals'] {
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
    return totals;
  }

  /** Per-device counts by hour, then device id. */
  private deviceColumns(): HourlyCountColumns['devices'] {
    const deviceCount = this.devices.length;
    const perDevice = this.perDevice;
    let deviceRows = 0;
    for (let at = 0; at < perDevice.length; at += 2) if ((perDevice[at] as number) > 0) deviceRows += 1;
    const devices = {
      hour: new Uint32Array(deviceRows),
      device: new Uint16Array(deviceRows),
      queries: new Float64Array(deviceRows),
      blocked: new Float64Array(deviceRows),
    };
    const byId = this.devices
      .map((_device, index) => index)
      .sort((a, b) => ((this.devices[a] as DeviceState).id < (this.devices[b] as DeviceState).id ? -1 : 1));
    let row = 0;
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
    return devices;
  }
}
