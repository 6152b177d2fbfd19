import type {
  DeviceActivity,
  DeviceCounts,
  DeviceHourlyCount,
  EdgeLogWriter,
  HourlyTotal,
  QueryLogEraser,
  QueryLogRow,
  QueryStatus,
} from '@svc/domain';

const HOUR_MS = 3_600_000;

/** One hour of one profile's queries of one status. */
export interface MemoryHourlyTotal {
  profileId: string;
  hour: Date;
  status: QueryStatus;
  count: number;
}

/**
 * The cloud query log in one process's memory, with the tables of the columnar store (migration 0002):
 * per-query rows, hourly totals and per-device hourly counts, counts adding up like the engine's summing
 * tables. Rows are kept past their retention: the engine drops expired rows on its own schedule (TTL on
 * merges), so no read can rely on their absence either.
 */
export class MemoryQueryLog {
  readonly rows: QueryLogRow[] = [];
  private readonly totalsByKey = new Map<string, MemoryHourlyTotal>();
  private readonly devicesByKey = new Map<string, DeviceHourlyCount>();

  get totals(): Iterable<MemoryHourlyTotal> {
    return this.totalsByKey.values();
  }

  get deviceCounts(): Iterable<DeviceHourlyCount> {
    return this.devicesByKey.values();
  }

  addTotal(total: HourlyTotal): void {
    const key = `${total.profileId} ${total.hour.getTime()} ${total.status}`;
    const known = this.totalsByKey.get(key);
    if (known === undefined) this.totalsByKey.set(key, { ...total, hour: new Date(total.hour) });
    else known.count += total.count;
  }

  addDeviceCount(count: DeviceHourlyCount): void {
    const key = `${count.profileId} ${count.deviceId} ${count.hour.getTime()}`;
    const known = this.devicesByKey.get(key);
    if (known === undefined) this.devicesByKey.set(key, { ...count, hour: new Date(count.hour) });
    else {
      known.queries += count.queries;
      known.blocked += count.blocked;
    }
  }

  /** Removes every row and count of the profiles. */
  erase(profileIds: ReadonlySet<string>): void {
    const kept = this.rows.filter((row) => !profileIds.has(row.profileId));
    this.rows.splice(0, this.rows.length, ...kept);
    for (const [key, total] of this.totalsByKey) {
      if (profileIds.has(total.profileId)) this.totalsByKey.delete(key);
    }
    for (const [key, count] of this.devicesByKey) {
      if (profileIds.has(count.profileId)) this.devicesByKey.delete(key);
    }
  }
}

/** {@link EdgeLogWriter} into a {@link MemoryQueryLog}: rows copied in, counts added up. */
export class MemoryEdgeLogWriter implements EdgeLogWriter {
  constructor(private readonly log: MemoryQueryLog) {}

  async writeRows(rows: readonly QueryLogRow[]): Promise<void> {
    for (const row of rows) this.log.rows.push(structuredClone(row));
  }

  async writeHourlyTotals(totals: readonly HourlyTotal[]): Promise<void> {
    for (const total of totals) this.log.addTotal(total);
  }

  async writeDeviceCounts(counts: readonly DeviceHourlyCount[]): Promise<void> {
    for (const count of counts) this.log.addDeviceCount(count);
  }
}

/** {@link QueryLogEraser} of a {@link MemoryQueryLog}. */
export class MemoryQueryLogEraser implements QueryLogEraser {
  constructor(private readonly log: MemoryQueryLog) {}

  async eraseProfiles(profileIds: readonly string[]): Promise<void> {
    this.log.erase(new Set(profileIds));
  }
}

/**
 * {@link DeviceCounts} from a {@link MemoryQueryLog}'s per-device hourly counts, whole hours from the hour
 * enclosing `since`, as the columnar store answers.
 */
export class MemoryDeviceCounts implements DeviceCounts {
  constructor(private readonly log: MemoryQueryLog) {}

  async countsFor(
    profileId: string,
    deviceIds: readonly string[],
    since: Date,
  ): Promise<ReadonlyMap<string, DeviceActivity>> {
    const from = Math.floor(since.getTime() / HOUR_MS) * HOUR_MS;
    const wanted = new Set(deviceIds);
    const counts = new Map<string, DeviceActivity>();
    for (const count of this.log.deviceCounts) {
      if (count.profileId !== profileId || !wanted.has(count.deviceId) || count.hour.getTime() < from)
        continue;
      const known = counts.get(count.deviceId) ?? { queries: 0, blocked: 0 };
      counts.set(count.deviceId, {
        queries: known.queries + count.queries,
        blocked: known.blocked + count.blocked,
      });
    }
    return counts;
  }
}
