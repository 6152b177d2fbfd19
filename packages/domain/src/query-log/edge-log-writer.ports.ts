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
 * Where the edge writes what it recorded: per-query rows for profiles whose destination keeps them in the
 * cloud, and the counts kept for every profile. Batched: callers pass many rows per call. (`svc simulate`,
 * which plays the edge, writes column batches through its own port, `@svc/edge-simulator`.)
 */
export const EdgeLogWriter = Symbol.for('svc.EdgeLogWriter');
export interface EdgeLogWriter {
  /** Appends query rows; each expires `retentionDays` (1 to 90) after its time. */
  writeRows(rows: readonly QueryLogRow[], retentionDays: number): Promise<void>;
  /** Adds to the hourly totals (counts add up with earlier writes of the same hour and status). */
  writeHourlyTotals(totals: readonly HourlyTotal[]): Promise<void>;
  /** Adds to the per-device hourly counts (counts add up like the totals). */
  writeDeviceCounts(counts: readonly DeviceHourlyCount[]): Promise<void>;
}
