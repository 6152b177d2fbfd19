import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClickHouseColumnarStore,
  ClickHouseEdgeLogWriter,
  concatQueryLogColumns,
  createColumnarStore,
  type QueryLogColumns,
  queryLogColumnsOf,
  queryLogRowsOf,
} from '@svc/adapters';
import type { QueryLogRow } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClickHouseSimulatedLogWriter,
  EdgeTrafficSimulation,
  type SimulatedProfile,
  servingPops,
} from '../src/index.js';

const serverUrl = process.env.CLICKHOUSE_URL;
/** Fresh profile ids per run, so that a ClickHouse server's earlier rows do not count. */
const RUN = Date.now().toString(36).slice(-5);
/**
 * The start of the current hour: the tables expire rows by their hour (device counts after 8 days), so a fixed
 * date would have a background merge drop some of what a test just wrote once the date is old enough.
 */
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

function profile(id: string, logDomains: boolean): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'null',
      logs_enabled: true,
      log_client_ip: logDomains,
      log_domains: logDomains,
      log_destination: 'cloud',
      retention_days: 30,
    },
    rules: {
      deny: ['tiktok.com', 'secure-bank-verify.net'],
      allow: [],
      rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }],
    },
    lists: [{ id: 1, name: 'StevenBlack unified hosts' }],
    suspended: false,
  };
}

function simulation(id: string, seed: number, logDomains: boolean) {
  return new EdgeTrafficSimulation(
    profile(id, logDomains),
    { queries: 2_000, days: 2, devices: 40, seed, now: NOW, batchSize: 700 },
    sha256,
    servingPops(),
  );
}

/** A row of texts the simulation never writes: UTF-8 beyond ASCII, quotes, a reason past 127 bytes. */
const oddRow: QueryLogRow = {
  profileId: `w${RUN}odd`,
  ts: new Date(NOW.getTime() - 877),
  rowId: '18446744073709551615',
  pop: 'node',
  node: '00000000-0000-4000-8000-000000000001',
  deviceId: 'd-zoë',
  deviceName: "Zoë's Phone",
  clientIp: '2001:db8::7',
  transport: 'doq',
  qname: 'bücher.example',
  qtype: 28,
  status: 'blocked',
  reasonListId: 7,
  reasonListName: 'Liste « spéciale »',
  reasonRule: `${'very-long-label.'.repeat(12)}example \\ 'quoted'`,
  operatorCode: '',
  rcode: 3,
  dnssecValidated: false,
  cacheHit: true,
  latencyUs: 12,
  answerIps: ['192.0.2.1', '2001:db8::1'],
};

/** The stored rows of the given profiles, as QueryLogRow, by row id. */
async function storedRows(store: ClickHouseColumnarStore, profiles: string[]): Promise<QueryLogRow[]> {
  const result = await store.client.query({
    query: `SELECT profile_id, toUnixTimestamp64Milli(ts) AS ms, toString(row_id) AS id, pop, node,
                   device_id, device_name, client_ip, transport, qname, qtype, status, reason_list_id,
                   reason_list_name, reason_rule, operator_code, rcode, dnssec_validated, cache_hit,
                   latency_us, answer_ips, retention_days
            FROM query_log WHERE profile_id IN {profiles:Array(String)} ORDER BY row_id`,
    query_params: { profiles },
    format: 'JSONEachRow',
  });
  const rows = await result.json<Record<string, unknown>>();
  return rows.map((row) => {
    expect(row.retention_days).toBe(30);
    return {
      profileId: row.profile_id as string,
      ts: new Date(Number(row.ms)),
      rowId: row.id as string,
      pop: row.pop as string,
      node: row.node as string | null,
      deviceId: row.device_id as string,
      deviceName: row.device_name as string,
      clientIp: row.client_ip as string,
      transport: row.transport as QueryLogRow['transport'],
      qname: row.qname as string,
      qtype: row.qtype as number,
      status: row.status as QueryLogRow['status'],
      reasonListId: row.reason_list_id as number | null,
      reasonListName: row.reason_list_name as string,
      reasonRule: row.reason_rule as string,
      operatorCode: row.operator_code as QueryLogRow['operatorCode'],
      rcode: row.rcode as number,
      dnssecValidated: row.dnssec_validated as boolean,
      cacheHit: row.cache_hit as boolean,
      latencyUs: row.latency_us as number,
      answerIps: row.answer_ips as string[],
    };
  });
}

const byRowId = (a: QueryLogRow, b: QueryLogRow) => (BigInt(a.rowId) < BigInt(b.rowId) ? -1 : 1);

function writerSuite(name: string, open: () => Promise<ClickHouseColumnarStore>, skip = false) {
  describe.skipIf(skip)(`ClickHouseSimulatedLogWriter and ClickHouseEdgeLogWriter: ${name}`, () => {
    let store: ClickHouseColumnarStore;
    let edge: ClickHouseEdgeLogWriter;
    let writer: ClickHouseSimulatedLogWriter;
    beforeAll(async () => {
      store = await open();
      await store.migrate();
      edge = new ClickHouseEdgeLogWriter(async () => store);
      writer = new ClickHouseSimulatedLogWriter(edge);
    }, 120_000);
    afterAll(async () => store?.close());

    it('stores batches of several profiles as the rows they hold, dictionaries sent once per column', async () => {
      const ids = [`w${RUN}a`, `w${RUN}b`];
      const batches: QueryLogColumns[] = [
        ...simulation(ids[0] as string, 11, true).columnBatches(),
        ...simulation(ids[1] as string, 12, false).columnBatches(),
        queryLogColumnsOf([oddRow]),
      ];
      const merged = concatQueryLogColumns(batches);
      await writer.writeColumns(merged, 30);
      const expected = queryLogRowsOf(merged).sort(byRowId);
      expect(await storedRows(store, [...ids, oddRow.profileId])).toEqual(expected);
    });

    it('refuses a batch whose code lies outside its dictionary, writing nothing', async () => {
      const id = `w${RUN}c`;
      const batch = queryLogColumnsOf([{ ...oddRow, profileId: id }]);
      const broken: QueryLogColumns = {
        ...batch,
        qname: { codes: Uint32Array.of(1), values: ['only.example'] },
      };
      await expect(writer.writeColumns(broken, 30)).rejects.toThrow(RangeError);
      expect(await storedRows(store, [id])).toEqual([]);
    });

    it('adds hourly totals and device counts to what is stored', async () => {
      const id = `w${RUN}d`;
      const counted = simulation(id, 13, true);
      for (const batch of counted.columnBatches()) await writer.writeColumns(batch, 30);
      const totals = counted.hourlyTotals();
      const devices = counted.deviceCounts();
      await edge.writeHourlyTotals(totals);
      await edge.writeHourlyTotals(totals);
      await edge.writeDeviceCounts(devices);
      const stored = await store.client.query({
        query: `SELECT
                  (SELECT sum(count) FROM query_totals_hourly WHERE profile_id = {id:String}) AS totals,
                  (SELECT groupArray((status, toUnixTimestamp(hour), n)) FROM (
                     SELECT status, hour, toUInt32(sum(count)) AS n FROM query_totals_hourly
                     WHERE profile_id = {id:String} GROUP BY status, hour ORDER BY hour, status)) AS by_hour,
                  (SELECT sum(queries) FROM device_counts_hourly WHERE profile_id = {id:String}) AS queries,
                  (SELECT sum(blocked) FROM device_counts_hourly WHERE profile_id = {id:String}) AS blocked,
                  (SELECT uniqExact(device_id) FROM device_counts_hourly WHERE profile_id = {id:String}) AS devices`,
        query_params: { id },
        format: 'JSONEachRow',
      });
      const [answer] = await stored.json<{
        totals: string;
        by_hour: [string, number, number][];
        queries: string;
        blocked: string;
        devices: string;
      }>();
      expect(Number(answer?.totals)).toBe(2 * 2_000);
      const expectedByHour = totals
        .map((total) => [total.status, total.hour.getTime() / 1000, 2 * total.count] as const)
        .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
      expect(answer?.by_hour).toEqual(expectedByHour);
      expect(Number(answer?.queries)).toBe(devices.reduce((sum, count) => sum + count.queries, 0));
      expect(Number(answer?.blocked)).toBe(devices.reduce((sum, count) => sum + count.blocked, 0));
      expect(Number(answer?.devices)).toBe(new Set(devices.map((count) => count.deviceId)).size);
    });

    it('adds the counts of several runs given column by column, as the objects would', async () => {
      const ids = [`w${RUN}e`, `w${RUN}f`];
      const runs = ids.map((id, index) => simulation(id, 21 + index, true));
      for (const run of runs) for (const _batch of run.columnBatches());
      // Out of profile order on purpose: the writer orders the runs itself.
      await writer.writeCountColumns(runs.map((run) => run.countColumns()).reverse());
      const stored = await store.client.query({
        query: `SELECT
                  (SELECT groupArray((profile_id, status, toUnixTimestamp(hour), n)) FROM (
                     SELECT profile_id, status, hour, toUInt32(sum(count)) AS n FROM query_totals_hourly
                     WHERE profile_id IN {ids:Array(String)} GROUP BY profile_id, status, hour
                     ORDER BY profile_id, hour, status)) AS totals,
                  (SELECT groupArray((profile_id, device_id, toUnixTimestamp(hour), q, b)) FROM (
                     SELECT profile_id, device_id, hour, toUInt32(sum(queries)) AS q, toUInt32(sum(blocked)) AS b
                     FROM device_counts_hourly WHERE profile_id IN {ids:Array(String)}
                     GROUP BY profile_id, device_id, hour ORDER BY profile_id, hour, device_id)) AS devices`,
        query_params: { ids },
        format: 'JSONEachRow',
      });
      const [answer] = await stored.json<{
        totals: [string, string, number, number][];
        devices: [string, string, number, number, number][];
      }>();
      const order = (a: readonly (string | number)[], b: readonly (string | number)[]) => {
        for (const at of [0, 2, 1]) {
          const left = a[at] as string | number;
          const right = b[at] as string | number;
          if (left !== right) return left < right ? -1 : 1;
        }
        return 0;
      };
      expect(answer?.totals).toEqual(
        runs
          .flatMap((run) => run.hourlyTotals())
          .map((total) => [total.profileId, total.status, total.hour.getTime() / 1000, total.count])
          .sort(order),
      );
      expect(answer?.devices).toEqual(
        runs
          .flatMap((run) => run.deviceCounts())
          .map((count) => [
            count.profileId,
            count.deviceId,
            count.hour.getTime() / 1000,
            count.queries,
            count.blocked,
          ])
          .sort(order),
      );
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-edge-writer-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
writerSuite('embedded chdb', () => createColumnarStore({ dataDir }));
writerSuite(
  'ClickHouse server (CLICKHOUSE_URL)',
  () => createColumnarStore({ url: serverUrl, dataDir }),
  serverUrl === undefined,
);
