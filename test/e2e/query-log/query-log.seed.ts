import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { type ClickHouseColumnarStore, LazyColumnarStore } from '@svc/adapters';
import {
  ColumnarStore,
  type DeviceSighting,
  EdgeLogWriter,
  type HourlyTotal,
  type QueryLogRow,
} from '@svc/domain';
import { EdgeTrafficSimulation, type SimulatedProfile } from '@svc/edge-simulator';
import type { ApiHarness } from '../../support/api-harness.js';

/** The ClickHouse columnar store of a running API (opening the embedded store on first use). */
export async function columnarStore(api: ApiHarness): Promise<ClickHouseColumnarStore> {
  const store = await api.container.getAsync<ColumnarStore>(ColumnarStore);
  if (!(store instanceof LazyColumnarStore)) throw new Error('the API has no ClickHouse columnar store');
  return store.store();
}

/** The columnar store's client of a running API (opening the embedded store on first use). */
export async function columnarClient(api: ApiHarness): Promise<ClickHouseClient> {
  return (await columnarStore(api)).client;
}

/**
 * The edge's writer of a running API: rows stored through it are stored as the edge stores them, and the
 * API's own memory of them (the newest rows of the embedded store) sees them as it sees the edge's.
 */
export async function edgeLogWriter(api: ApiHarness): Promise<EdgeLogWriter> {
  return api.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
}

/** Stores log rows as the edge does (kept 90 days). */
export async function insertRows(writer: EdgeLogWriter, rows: readonly QueryLogRow[]): Promise<void> {
  await writer.writeRows(rows, 90);
}

/** Adds hourly totals as the edge counts them. */
export async function insertTotals(writer: EdgeLogWriter, totals: readonly HourlyTotal[]): Promise<void> {
  await writer.writeHourlyTotals(totals);
}

/** Hourly totals of `rows` by status, as the edge would have counted them. */
export function totalsOf(rows: readonly QueryLogRow[]): HourlyTotal[] {
  const HOUR = 3_600_000;
  const counts = new Map<string, HourlyTotal>();
  for (const row of rows) {
    const hour = Math.floor(row.ts.getTime() / HOUR) * HOUR;
    const key = `${row.profileId}|${hour}|${row.status}`;
    const total = counts.get(key) ?? {
      profileId: row.profileId,
      hour: new Date(hour),
      status: row.status,
      count: 0,
    };
    total.count += 1;
    counts.set(key, total);
  }
  return [...counts.values()];
}

/** Deterministic simulated traffic of a profile (the store engineer's generator, fixed seed). */
export function simulatedRows(
  profile: SimulatedProfile,
  options: { queries: number; days: number; devices: number; seed: number; now: Date },
): { rows: QueryLogRow[]; devices: { id: string; name: string }[]; sightings: DeviceSighting[] } {
  const simulation = new EdgeTrafficSimulation(profile, options, (data) => createHashHex(data), [
    'yyz',
    'yul',
    'fra',
  ]);
  const rows: QueryLogRow[] = [];
  for (const batch of simulation.batches()) rows.push(...batch);
  return {
    rows,
    devices: simulation.devices.map((device) => ({ id: device.id, name: device.name })),
    sightings: simulation.sightings(),
  };
}

function createHashHex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}
