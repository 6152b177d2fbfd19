import type { QueryLogColumns } from './query-log-columns.js';
import type { HourlyTotal, QueryLogRow } from './query-log-row.js';

/** One hour of one device's queries as the edge counted them (for the devices' queries_24h, blocked_24h). */
export interface DeviceHourlyCount {
  profileId: string;
  deviceId: string;
  /** Start of the hour (UTC, whole hour). */
  hour: Date;
  queries: number;
  blocked: number;
}

/**
 * One run's hourly counts column by column (what the simulator counted for one profile): what bulk writers
 * take instead of a {@link HourlyTotal} and a {@link DeviceHourlyCount} object per row. Each part lies in the
 * order of the tables' sort keys (hour, then status name; hour, then device id), so that a store sorts nothing.
 */
export interface HourlyCountColumns {
  readonly profileId: string;
  /** Queries by hour and status: hour starts in Unix seconds, status as its index in QUERY_STATUSES. */
  readonly totals: { readonly hour: Uint32Array; readonly status: Uint8Array; readonly count: Float64Array };
  /** Per-device counts, devices as codes into `deviceIds`. */
  readonly devices: {
    readonly hour: Uint32Array;
    readonly device: Uint16Array;
    readonly queries: Float64Array;
    readonly blocked: Float64Array;
  };
  readonly deviceIds: readonly string[];
}

/**
 * Where the edge (and `svc simulate`, which plays it) writes what it recorded: per-query rows for profiles
 * whose destination keeps them in the cloud, and the counts kept for every profile. Batched: callers pass
 * many rows per call.
 */
export const EdgeLogWriter = Symbol.for('svc.EdgeLogWriter');
export interface EdgeLogWriter {
  /** Appends query rows; each expires `retentionDays` (1 to 90) after its time. */
  writeRows(rows: readonly QueryLogRow[], retentionDays: number): Promise<void>;
  /** Appends query rows given column by column (bulk writers: the simulator); as {@link writeRows}. */
  writeColumns(batch: QueryLogColumns, retentionDays: number): Promise<void>;
  /** Adds to the hourly totals (counts add up with earlier writes of the same hour and status). */
  writeHourlyTotals(totals: readonly HourlyTotal[]): Promise<void>;
  /** Adds to the per-device hourly counts (counts add up like the totals). */
  writeDeviceCounts(counts: readonly DeviceHourlyCount[]): Promise<void>;
  /** Adds the hourly totals and per-device counts of several runs at once, as {@link writeHourlyTotals} and {@link writeDeviceCounts}. */
  writeCountColumns(counts: readonly HourlyCountColumns[]): Promise<void>;
}
