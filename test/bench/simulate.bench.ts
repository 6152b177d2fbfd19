import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClickHouseColumnarStore,
  ClickHouseEdgeLogWriter,
  concatQueryLogColumns,
  createColumnarStore,
  type QueryLogColumns,
} from '@svc/adapters';
import {
  ClickHouseSimulatedLogWriter,
  EdgeTrafficSimulation,
  type HourlyCountColumns,
  SIMULATION_TIME_CHUNK,
  type SimulatedProfile,
  servingPops,
  TrafficModels,
} from '@svc/edge-simulator';

/**
 * The simulator's write rate and direct-SQL timings of the query-log store at scale:
 * `node --conditions=source --import tsx test/bench/simulate.bench.ts [--large] [--rows N]`.
 * Writes 10 million simulated rows (100 million with --large) for 1,000 profiles over 30 days into a fresh
 * embedded store in a temporary folder, one heavy profile holding about 3% of the rows, then prints p50/p99
 * over 30 runs of the queries the API's shapes rest on, run directly through the adapter's client.
 */
const args = process.argv.slice(2);
const rowsFlag = args.indexOf('--rows');
const TOTAL_ROWS =
  rowsFlag >= 0 ? Number(args[rowsFlag + 1]) : args.includes('--large') ? 100_000_000 : 10_000_000;
const PROFILES = 1_000;
const HEAVY_SHARE = 0.03;
const DAYS = 30;
const RUNS = 30;
/**
 * Rows per insert: large inserts keep the number of parts low (one part per day partition per insert), and
 * dividing the simulation's time chunk keeps each profile's rows in time order.
 */
const INSERT_ROWS = SIMULATION_TIME_CHUNK;
/** Hourly totals and device counts per insert. */
const COUNT_ROWS = 2_000_000;
const RETENTION = 90;
const HEAVY = 'heavy0';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

function profileOf(id: string): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: 'cloud',
      retention_days: RETENTION,
    },
    rules: { deny: ['tiktok.com'], allow: [], rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }] },
    lists: [{ id: 1, name: 'StevenBlack unified hosts' }],
    suspended: false,
  };
}

/** Profile ids: the heavy one, then `p00001`… */
const typicalId = (index: number) => `p${String(index).padStart(5, '0')}`;

async function writeAll(
  store: ClickHouseColumnarStore,
  now: Date,
): Promise<{ rows: number; ms: number; cpuMs: number }> {
  const writer = new ClickHouseSimulatedLogWriter(new ClickHouseEdgeLogWriter(async () => store));
  const heavyRows = Math.round(TOTAL_ROWS * HEAVY_SHARE);
  const typicalRows = Math.floor((TOTAL_ROWS - heavyRows) / (PROFILES - 1));
  const plan: [string, number][] = [[HEAVY, heavyRows]];
  for (let index = 1; index < PROFILES; index += 1) plan.push([typicalId(index), typicalRows]);
  const started = performance.now();
  // The whole process's CPU time, chdb's threads included: steadier than wall time on a loaded machine.
  const cpuStarted = process.cpuUsage();
  let buffer: QueryLogColumns[] = [];
  let buffered = 0;
  let counts: HourlyCountColumns[] = [];
  let countRows = 0;
  let pending: Promise<void> = Promise.resolve();
  let written = 0;
  // One insert at a time, each overlapping the generation of what follows it.
  const flush = async () => {
    const batch = concatQueryLogColumns(buffer);
    buffer = [];
    buffered = 0;
    written += batch.length;
    await pending;
    pending = writer.writeColumns(batch, RETENTION);
  };
  const flushCounts = async () => {
    const parts = counts;
    counts = [];
    countRows = 0;
    await pending;
    pending = writer.writeCountColumns(parts);
  };
  // One model for the run, as the simulator service holds one: alike profiles share their decided pool.
  const models = new TrafficModels();
  for (const [index, [id, queries]] of plan.entries()) {
    const simulation = new EdgeTrafficSimulation(
      profileOf(id),
      { queries, days: DAYS, devices: 5, seed: index + 1, now, batchSize: INSERT_ROWS },
      sha256,
      servingPops(),
      models,
    );
    for (const batch of simulation.columnBatches()) {
      buffer.push(batch);
      buffered += batch.length;
      if (buffered >= INSERT_ROWS) await flush();
    }
    const counted = simulation.countColumns();
    counts.push(counted);
    countRows += counted.totals.hour.length + counted.devices.hour.length;
    if (countRows >= COUNT_ROWS) await flushCounts();
  }
  if (buffered > 0) await flush();
  if (countRows > 0) await flushCounts();
  await pending;
  const cpu = process.cpuUsage(cpuStarted);
  return { rows: written, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function timeQuery(
  store: ClickHouseColumnarStore,
  label: string,
  query: string,
  params: (run: number) => Record<string, unknown>,
): Promise<void> {
  const durations: number[] = [];
  let rows = 0;
  for (let run = -3; run < RUNS; run += 1) {
    const started = performance.now();
    const result = await store.client.query({
      query,
      query_params: params(run),
      format: 'JSONCompactEachRow',
    });
    rows = (await result.json()).length;
    if (run >= 0) durations.push(performance.now() - started);
  }
  durations.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(52)} p50 ${percentile(durations, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(durations, 99).toFixed(1).padStart(7)} ms   (${rows} rows)`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-simulate-bench-'));
const store = await createColumnarStore({ dataDir });
try {
  await store.migrate();
  const now = new Date();
  console.log(
    `svc simulate bench: ${TOTAL_ROWS.toLocaleString('en')} rows, ${PROFILES} profiles (${HEAVY} holds ${HEAVY_SHARE * 100}%), ${DAYS} days, embedded chdb in ${dataDir}; load average ${loadavg()[0]?.toFixed(2)}`,
  );
  const { rows, ms, cpuMs } = await writeAll(store, now);
  console.log(
    `simulator into embedded chdb: ${rows.toLocaleString('en')} rows in ${(ms / 1000).toFixed(1)} s = ${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s (target 500,000 rows/s); process CPU ${(cpuMs / (rows / 1_000_000) / 1000).toFixed(2)} s per million rows; load average ${loadavg()[0]?.toFixed(2)}`,
  );
  const parts = await store.client.query({
    query: "SELECT count() AS parts FROM system.parts WHERE table = 'query_log' AND active",
    format: 'JSONEachRow',
  });
  console.log(`active parts of query_log: ${(await parts.json<{ parts: string }>())[0]?.parts}`);

  const to = Math.floor(now.getTime() / 1000);
  const from = to - DAYS * 86_400;
  const typical = (run: number) => typicalId(1 + (((run + 3) * 37) % (PROFILES - 1)));
  const latest = `SELECT * FROM query_log WHERE profile_id = {profile:String}
                  ORDER BY ts DESC, row_id DESC LIMIT 100`;
  const topDomains = `SELECT qname, count() AS queries FROM query_log
                      WHERE profile_id = {profile:String}
                        AND ts >= fromUnixTimestamp64Milli({from:Int64}) AND ts < fromUnixTimestamp64Milli({to:Int64})
                      GROUP BY qname ORDER BY queries DESC, qname LIMIT 10`;
  const hourly = `SELECT hour, status, sum(count) AS queries FROM query_totals_hourly
                  WHERE profile_id = {profile:String} AND hour >= toDateTime({from:UInt32}) AND hour < toDateTime({to:UInt32})
                  GROUP BY hour, status ORDER BY hour, status`;
  console.log(`direct SQL through the adapter's client, ${RUNS} runs each (after 3 warm-up runs):`);
  await timeQuery(store, 'latest 100 rows, heavy profile', latest, () => ({ profile: HEAVY }));
  await timeQuery(store, 'latest 100 rows, typical profile', latest, (run) => ({ profile: typical(run) }));
  await timeQuery(store, 'top 10 domains over 30 days, heavy profile', topDomains, () => ({
    profile: HEAVY,
    from: from * 1000,
    to: to * 1000,
  }));
  await timeQuery(store, 'top 10 domains over 30 days, typical profile', topDomains, (run) => ({
    profile: typical(run),
    from: from * 1000,
    to: to * 1000,
  }));
  await timeQuery(store, 'hourly counts over 30 days, heavy profile', hourly, () => ({
    profile: HEAVY,
    from,
    to,
  }));
  await timeQuery(store, 'hourly counts over 30 days, typical profile', hourly, (run) => ({
    profile: typical(run),
    from,
    to,
  }));
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
