import type { ClickHouseClient } from '@clickhouse/client';
import { LazyColumnarStore } from '@svc/adapters';
import { simulateOperation } from '@svc/cli/simulate-operation';
import { ColumnarStore, storedColumnsOf } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import {
  type Destination,
  type DeviceBody,
  edgeViewOf,
  HOUR,
  regenerate,
  rowsOf,
} from './simulate.fixture.js';

/** `svc simulate` on PGlite and each columnar backend: the rows, totals and sightings it stores (RUNNER.md). */
export function simulateOnEachBackend(): void {
  const backends: { name: string; env: Record<string, string>; skip: string | undefined }[] = [
    { name: 'embedded chdb', env: {}, skip: undefined },
    {
      name: 'a ClickHouse server',
      env: process.env.CLICKHOUSE_URL === undefined ? {} : { CLICKHOUSE_URL: process.env.CLICKHOUSE_URL },
      skip: process.env.CLICKHOUSE_URL === undefined ? 'CLICKHOUSE_URL is not set' : undefined,
    },
  ];

  for (const backend of backends) {
    if (backend.skip !== undefined) console.log(`skipping svc simulate on ${backend.name}: ${backend.skip}`);

    describe.skipIf(backend.skip !== undefined)(
      `svc simulate on PGlite and ${backend.name} (RUNNER.md)`,
      () => {
        let api: ApiHarness;
        let owner: TestAccount;
        let client: ClickHouseClient;
        const profiles = new Map<Destination, string>();
        const options = { queries: 6_000, days: 3, devices: 4, seed: 20261123 };

        const createProfile = async (destination: Destination, retention: number): Promise<string> => {
          const created = await send(`${api.url}/v1/profiles`, {
            method: 'POST',
            headers: owner.auth,
            body: { settings: { log_destination: destination, retention_days: retention } },
          });
          expect(created.status).toBe(201);
          const id = (created.json as { id: string }).id;
          const rules = await send(`${api.url}/v1/profiles/${id}/rules`, {
            method: 'PUT',
            headers: owner.auth,
            body: { deny: ['tiktok.com'], rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }] },
          });
          expect(rules.status).toBe(200);
          const lists = await send(`${api.url}/v1/profiles/${id}/lists`, {
            method: 'PUT',
            headers: owner.auth,
            body: { lists: [1] },
          });
          expect(lists.status).toBe(200);
          return id;
        };

        const expectedFor = async (id: string) => {
          return regenerate(await edgeViewOf(api.url, owner, id), { ...options, now: api.clock.now() });
        };

        beforeAll(async () => {
          api = await startApi('pglite', backend.env);
          owner = await createAccount(api);
          const retention: Record<Destination, number> = { cloud: 14, both: 45, none: 30, 'self-hosted': 7 };
          for (const destination of ['cloud', 'both', 'none', 'self-hosted'] as const)
            profiles.set(destination, await createProfile(destination, retention[destination]));
          const store = await api.container.getAsync<ColumnarStore>(ColumnarStore);
          if (!(store instanceof LazyColumnarStore))
            throw new Error('the API has no ClickHouse columnar store');
          client = (await store.store()).client;
          for (const id of profiles.values())
            await simulateOperation(api.container, { profile: id, ...options });
        }, 180_000);

        afterAll(async () => {
          await api?.close();
        });

        it('writes per-query rows only for destinations cloud and both, each carrying the profile retention', async () => {
          for (const [destination, id] of profiles) {
            const [stored] = await rowsOf<{ rows: string; ids: string; retention: number[] }>(
              client,
              `SELECT toString(count()) AS rows, toString(uniqExact(row_id)) AS ids, groupUniqArray(retention_days) AS retention
           FROM query_log WHERE profile_id = {id:String}`,
              { id },
            );
            if (destination === 'cloud' || destination === 'both') {
              expect(stored).toEqual({
                rows: String(options.queries),
                ids: String(options.queries),
                retention: [destination === 'cloud' ? 14 : 45],
              });
            } else {
              expect(stored?.rows).toBe('0');
            }
          }
        });

        it('stores the rows the seed generates, column for column', async () => {
          const id = profiles.get('cloud') as string;
          const { rows } = await expectedFor(id);
          const stored = await rowsOf<Record<string, unknown>>(
            client,
            `SELECT toString(row_id) AS row_id, toUnixTimestamp64Milli(ts) AS ms, pop, node, device_id, device_name,
                client_ip, transport, qname, qtype, status, reason_list_id, reason_list_name, reason_rule,
                operator_code, rcode, dnssec_validated, cache_hit, latency_us, answer_ips
         FROM query_log WHERE profile_id = {id:String} ORDER BY row_id`,
            { id },
          );
          const expected = [...rows]
            .sort((a, b) => (BigInt(a.rowId) < BigInt(b.rowId) ? -1 : 1))
            .map((row) => ({
              ...storedColumnsOf(row),
              ms: row.ts.getTime(),
              node: row.node,
            }));
          expect(stored.map((row) => ({ ...row, ms: Number(row.ms) }))).toEqual(expected);
          const statuses = new Set(rows.map((row) => row.status));
          expect(statuses).toEqual(new Set(['allowed', 'blocked', 'rewritten', 'error']));
          expect(rows.some((row) => row.reasonListId === 1 && row.reasonListName !== '')).toBe(true);
          expect(rows.some((row) => row.reasonRule === 'tiktok.com')).toBe(true);
        });

        it('counts hourly totals for every destination, equal to the generated queries by hour and status', async () => {
          for (const id of profiles.values()) {
            const { simulation } = await expectedFor(id);
            const stored = await rowsOf<{ hour: number; status: string; count: string }>(
              client,
              `SELECT toUnixTimestamp(hour) AS hour, status, toString(sum(count)) AS count FROM query_totals_hourly
           WHERE profile_id = {id:String} GROUP BY hour, status ORDER BY hour, status`,
              { id },
            );
            const expected = simulation
              .hourlyTotals()
              .map((total) => ({
                hour: total.hour.getTime() / 1000,
                status: total.status,
                count: String(total.count),
              }))
              .sort((a, b) => a.hour - b.hour || (a.status < b.status ? -1 : 1));
            expect(stored).toEqual(expected);
            expect(expected.reduce((sum, total) => sum + Number(total.count), 0)).toBe(options.queries);
          }
        });

        it('records device sightings and answers device counts of the last 24 hours through GET devices', async () => {
          for (const id of profiles.values()) {
            const { simulation, rows } = await expectedFor(id);
            const answer = await send(`${api.url}/v1/profiles/${id}/devices`, { headers: owner.auth });
            expect(answer.status).toBe(200);
            const devices = (answer.json as { devices: DeviceBody[] }).devices;
            expect(devices.map((device) => device.id).sort()).toEqual(
              simulation.devices.map((device) => device.id).sort(),
            );
            // Counts are whole hours: from the hour enclosing now - 24 h.
            const since = Math.floor((api.clock.now().getTime() - 24 * HOUR) / HOUR) * HOUR;
            for (const device of devices) {
              const simulated = simulation.devices.find((candidate) => candidate.id === device.id);
              const mine = rows.filter((row) => row.deviceId === device.id);
              const times = mine.map((row) => row.ts.getTime());
              const recent = mine.filter((row) => row.ts.getTime() >= since);
              expect(device).toMatchObject({
                name: simulated?.name,
                transport_last: simulated?.transport,
                identification: simulated?.identification,
                first_seen: new Date(Math.min(...times)).toISOString(),
                last_seen: new Date(Math.max(...times)).toISOString(),
                queries_24h: recent.length,
                blocked_24h: recent.filter((row) => row.status === 'blocked').length,
              });
            }
            expect(devices.some((device) => (device.queries_24h ?? 0) > 0)).toBe(true);
          }
        });

        it('names an unknown profile clearly', async () => {
          await expect(simulateOperation(api.container, { profile: 'zz9zz9', ...options })).rejects.toThrow(
            'no profile zz9zz9',
          );
        });
      },
    );
  }
}
