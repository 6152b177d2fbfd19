import type { QueryLogEraser } from '@svc/domain';
import type { ClickHouseColumnarStore } from './clickhouse.columnar-store.js';

/** The tables of migration 0002 that hold rows per profile. */
const PROFILE_TABLES = ['query_log', 'query_totals_hourly', 'device_counts_hourly'] as const;

/**
 * Erases profiles from the columnar store (embedded chdb or a ClickHouse server) with lightweight deletes:
 * the rows stop being visible as soon as each statement returns (they are dropped from disk by later merges),
 * and deleting rows that are already gone does nothing, so a retry is harmless.
 */
export class ClickHouseQueryLogEraser implements QueryLogEraser {
  constructor(private readonly store: () => Promise<ClickHouseColumnarStore>) {}

  async eraseProfiles(profileIds: readonly string[]): Promise<void> {
    if (profileIds.length === 0) return;
    const { client, newestRows } = await this.store();
    // Before, so that no read under way keeps the rows, and after, so that none read meanwhile stays.
    newestRows?.forget(profileIds);
    try {
      for (const table of PROFILE_TABLES) {
        await client.command({
          query: `DELETE FROM ${table} WHERE profile_id IN {profiles:Array(String)}`,
          query_params: { profiles: [...profileIds] },
        });
      }
    } finally {
      newestRows?.forget(profileIds);
    }
  }
}
