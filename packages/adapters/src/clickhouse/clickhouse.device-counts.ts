import type { DeviceActivity, DeviceCounts } from '@svc/domain';
import type { ClickHouseColumnarStore } from './clickhouse.columnar-store.js';

/**
 * Device counts (queries_24h, blocked_24h) from the hourly per-device counts the edge writes
 * (device_counts_hourly). The counts are whole hours: the window starts at the hour enclosing `since`, as
 * hourly totals report enclosing hours. Unavailable (null) when the store cannot answer.
 */
export class ClickHouseDeviceCounts implements DeviceCounts {
  constructor(
    private readonly store: () => Promise<ClickHouseColumnarStore>,
    /** Told why counts were unavailable (the devices still list, with null counts). */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async countsFor(
    profileId: string,
    deviceIds: readonly string[],
    since: Date,
  ): Promise<ReadonlyMap<string, DeviceActivity> | null> {
    if (deviceIds.length === 0) return new Map();
    try {
      const { client } = await this.store();
      const result = await client.query({
        query: `SELECT device_id, toString(sum(queries)) AS queries, toString(sum(blocked)) AS blocked
                FROM device_counts_hourly
                WHERE profile_id = {profile:String}
                  AND hour >= toStartOfHour(toDateTime({since:UInt32}, 'UTC'))
                  AND device_id IN {devices:Array(String)}
                GROUP BY device_id`,
        query_params: {
          profile: profileId,
          since: Math.floor(since.getTime() / 1000),
          devices: [...deviceIds],
        },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ device_id: string; queries: string; blocked: string }>();
      return new Map(
        rows.map((row) => [row.device_id, { queries: Number(row.queries), blocked: Number(row.blocked) }]),
      );
    } catch (error) {
      this.onError(error);
      return null;
    }
  }
}
