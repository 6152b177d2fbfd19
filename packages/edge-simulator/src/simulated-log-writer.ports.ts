import type { QueryLogColumns } from '@svc/adapters';

/**
 * One run's hourly counts column by column (what the simulator counted for one profile): what bulk writers
 * take instead of a `HourlyTotal` and a `DeviceHourlyCount` object per row. Each part lies in the
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
 * Where the simulator writes what it played: the columnar store's bulk inserts, column batches as the
 * ClickHouse Native format takes them (typed arrays and dictionaries), so that millions of simulated queries
 * never become an object each. The edge's own writer (the domain's EdgeLogWriter) takes row objects.
 */
export interface SimulatedLogWriter {
  /** Appends query rows given column by column; each expires `retentionDays` (1 to 90) after its time. */
  writeColumns(batch: QueryLogColumns, retentionDays: number): Promise<void>;
  /** Adds the hourly totals and per-device counts of several runs at once (counts add up with earlier writes). */
  writeCountColumns(counts: readonly HourlyCountColumns[]): Promise<void>;
}
