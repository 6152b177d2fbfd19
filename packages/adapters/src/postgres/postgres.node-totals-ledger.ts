import type { CountGrowth, NodeTotalsLedger, QueryStatus, ReportedCount } from '@svc/domain';
import type pg from 'pg';

/**
 * The hourly totals nodes reported, on PostgreSQL (0018, node_hourly_totals): a report's counts are locked,
 * compared with the stored ones, the growth written to the columnar store and the new counts stored in one
 * transaction, so a failed write leaves nothing recorded and the report sent again is counted once.
 */
export class PostgresNodeTotalsLedger implements NodeTotalsLedger {
  constructor(private readonly db: pg.Pool) {}

  async settle(
    nodeId: string,
    run: string,
    counts: readonly ReportedCount[],
    write: (growth: CountGrowth[]) => Promise<void>,
  ): Promise<void> {
    if (counts.length === 0) return;
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      const stored = await client.query<{ hour: Date; status: QueryStatus; count: string }>(
        `SELECT hour, status, count FROM node_hourly_totals
         WHERE node_id = $1 AND run = $2 AND hour = ANY($3::timestamptz[]) FOR UPDATE`,
        [nodeId, run, [...new Set(counts.map((count) => count.hour.toISOString()))]],
      );
      const before = new Map(
        stored.rows.map((row) => [`${row.hour.toISOString()} ${row.status}`, Number(row.count)]),
      );
      const growth = counts.flatMap((count) => {
        const grown = count.count - (before.get(`${count.hour.toISOString()} ${count.status}`) ?? 0);
        return grown > 0 ? [{ hour: count.hour, status: count.status, growth: grown }] : [];
      });
      if (growth.length > 0) {
        await write(growth);
        await client.query(
          `INSERT INTO node_hourly_totals (node_id, run, hour, status, count)
           SELECT $1, $2, hour, status, count
           FROM unnest($3::timestamptz[], $4::text[], $5::bigint[]) AS reported (hour, status, count)
           ON CONFLICT (node_id, run, hour, status)
             DO UPDATE SET count = GREATEST(node_hourly_totals.count, EXCLUDED.count)`,
          [
            nodeId,
            run,
            growth.map((grown) => grown.hour.toISOString()),
            growth.map((grown) => grown.status),
            growth.map(
              (grown) => grown.growth + (before.get(`${grown.hour.toISOString()} ${grown.status}`) ?? 0),
            ),
          ],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async forgetBefore(before: Date, limit: number): Promise<number> {
    const forgotten = await this.db.query(
      `DELETE FROM node_hourly_totals WHERE ctid IN (
         SELECT ctid FROM node_hourly_totals WHERE hour < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
    return forgotten.rowCount ?? 0;
  }
}
