import {
  DeviceSightings,
  type EdgeLogWriter,
  ownerOfAddress,
  ownerOfQuery,
  type QueryLogRow,
} from '@svc/domain';
import type { SimulatedProfile } from '@svc/edge-simulator';
import { createClient, queryRecords } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { countsByStatus, expectedReason, newestFirst, topBy, within } from './query-log.expected.js';
import { edgeLogWriter, insertRows, insertTotals, simulatedRows, totalsOf } from './query-log.seed.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Result {
  shape: string;
  source: string;
  columns: { name: string; type: string }[];
  rows: unknown[][];
  next_cursor: string | null;
  partial: boolean;
}

const LOG_COLUMNS = [
  ['ts', 'time'],
  ['source', 'string'],
  ['pop', 'string'],
  ['node', 'string'],
  ['profile_id', 'string'],
  ['device_id', 'string'],
  ['device_name', 'string'],
  ['client_ip', 'string'],
  ['transport', 'string'],
  ['qname', 'string'],
  ['qtype', 'uint'],
  ['status', 'string'],
  ['reason_list_id', 'uint'],
  ['reason_rule', 'string'],
  ['rcode', 'uint'],
  ['dnssec_validated', 'bool'],
  ['cache_hit', 'bool'],
  ['latency_us', 'uint'],
  ['answer_ips', 'unknown'],
  ['reason', 'string'],
  ['reason_code', 'string'],
  ['ede_code', 'uint'],
  ['ede_text', 'string'],
];

function simulatedProfile(id: string, destination: 'cloud' | 'none' | 'self-hosted'): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: destination,
      retention_days: 30,
    },
    rules: {
      deny: ['tiktok.com', '=ads.example'],
      allow: [],
      rewrites: [{ pattern: 'printer.home.arpa', answer: '192.168.1.20' }],
    },
    lists: [
      { id: 1, name: 'StevenBlack unified hosts' },
      { id: 2, name: 'Second list' },
    ],
    suspended: false,
  };
}

/** Column `name` of every row of a result. */
function column(result: Result, name: string): unknown[] {
  const index = result.columns.findIndex((entry) => entry.name === name);
  if (index < 0) throw new Error(`no column ${name} in ${JSON.stringify(result.columns)}`);
  return result.rows.map((row) => row[index]);
}

/**
 * Query logs and analytics through HTTP (spec 2.11, 4.6, 7, 8) on the embedded columnar store, with rows
 * written by the simulated edge (fixed seed) and expected values computed here from those rows.
 */
export function runQueryLogSuite(
  storage: HarnessStorage,
  options: { skip?: boolean; env?: Record<string, string>; label?: string } = {},
): void {
  describe.skipIf(options.skip === true)(
    `query logs and analytics on ${options.label ?? storage} (spec 4.6)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      let stranger: TestAccount;
      let writer: EdgeLogWriter;
      let profileId: string;
      let noneId: string;
      let selfHostedId: string;
      let rows: QueryLogRow[];
      let devices: { id: string; name: string }[];
      let now: Date;

      const createProfile = async (account: TestAccount, destination?: string): Promise<string> => {
        const created = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: account.auth,
          body: destination === undefined ? {} : { settings: { log_destination: destination } },
        });
        expect(created.status).toBe(201);
        return (created.json as { id: string }).id;
      };
      const get = (path: string, account: TestAccount = owner): Promise<RawAnswer> =>
        send(`${api.url}${path}`, { headers: account.auth });
      const ok = async (path: string, account: TestAccount = owner): Promise<Result> => {
        const answer = await get(path, account);
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.text}`);
        return answer.json as Result;
      };
      /** Query string with an explicit short range, so that the cost budget never gets in the way. */
      const recent = (extra = '') => `from=${now.getTime() - 3 * DAY}&to=${now.getTime()}${extra}`;

      beforeAll(async () => {
        api = await startApi(storage, options.env);
        owner = await createAccount(api);
        stranger = await createAccount(api);
        profileId = await createProfile(owner);
        noneId = await createProfile(owner, 'none');
        selfHostedId = await createProfile(owner, 'self-hosted');
        writer = await edgeLogWriter(api);
        now = api.clock.now();
        const simulated = simulatedRows(simulatedProfile(profileId, 'cloud'), {
          queries: 2_500,
          days: 2,
          devices: 4,
          seed: 7,
          now: new Date(now.getTime() - 60_000),
        });
        rows = simulated.rows;
        devices = simulated.devices;
        await insertRows(writer, rows);
        await insertTotals(writer, totalsOf(rows));
        const sightings = await api.container.getAsync<DeviceSightings>(DeviceSightings);
        await sightings.record(simulated.sightings);
        // Profiles keeping no rows in the cloud still have their hourly totals (spec 4.6 rule 1).
        const elsewhere = simulatedRows(simulatedProfile(noneId, 'cloud'), {
          queries: 300,
          days: 1,
          devices: 2,
          seed: 11,
          now: new Date(now.getTime() - 60_000),
        }).rows;
        await insertTotals(writer, totalsOf(elsewhere));
        await insertTotals(writer, totalsOf(elsewhere.map((row) => ({ ...row, profileId: selfHostedId }))));
      }, 120_000);
      afterAll(async () => {
        await api?.close();
      });

      it('the simulated data has what the assertions need', () => {
        expect(rows.length).toBeGreaterThan(2_000);
        expect(new Set(rows.map((row) => row.status))).toEqual(
          new Set(['allowed', 'blocked', 'rewritten', 'error']),
        );
        expect(rows.some((row) => row.reasonListId !== null)).toBe(true);
      });

      describe('GET /v1/profiles/{id}/logs', () => {
        it('tail answers the latest rows newest first with the columns of spec 2.11, typed, partial false', async () => {
          const result = await ok(`/v1/profiles/${profileId}/logs`);
          expect(result.shape).toBe('tail');
          expect(result.source).toBe('columnar');
          expect(result.partial).toBe(false);
          expect(result.columns.map((entry) => [entry.name, entry.type])).toEqual(LOG_COLUMNS);
          const expected = newestFirst(rows).slice(0, 100);
          expect(column(result, 'ts')).toEqual(expected.map((row) => row.ts.toISOString()));
          expect(result.rows).toHaveLength(100);
          const first = expected[0] as QueryLogRow;
          const cells = Object.fromEntries(
            result.columns.map((entry, index) => [entry.name, result.rows[0]?.[index]]),
          );
          expect(cells).toMatchObject({
            source: 'columnar',
            pop: first.pop,
            node: null,
            profile_id: profileId,
            device_id: first.deviceId,
            client_ip: first.clientIp,
            transport: first.transport,
            qname: first.qname,
            qtype: first.qtype,
            status: first.status,
            reason_list_id: first.reasonListId,
            reason_rule: first.reasonRule,
            rcode: first.rcode,
            dnssec_validated: first.dnssecValidated,
            cache_hit: first.cacheHit,
            latency_us: first.latencyUs,
            answer_ips: first.answerIps,
          });
        });

        it('computes reason, reason_code, ede_code and ede_text for every row (spec 2.11)', async () => {
          const result = await ok(`/v1/profiles/${profileId}/logs?mode=search&limit=1000&${recent()}`);
          const byCode = new Map<string, number>();
          const expected = newestFirst(rows).slice(0, 1000);
          const reasons = ['reason', 'reason_code', 'ede_code', 'ede_text'].map((name) =>
            column(result, name),
          );
          expected.forEach((row, index) => {
            expect(reasons.map((values) => values[index])).toEqual(expectedReason(row));
            const code = expectedReason(row)[1];
            byCode.set(code, (byCode.get(code) ?? 0) + 1);
          });
          expect(byCode.get('list')).toBeGreaterThan(0);
          expect(byCode.get('none')).toBeGreaterThan(0);
        });

        it('tail with its cursor answers only rows that arrived after it, without gaps or repeats (4.1.4)', async () => {
          const first = await ok(`/v1/profiles/${profileId}/logs?limit=5`);
          expect(first.next_cursor).toEqual(expect.any(String));
          const quiet = await ok(`/v1/profiles/${profileId}/logs?limit=5&cursor=${first.next_cursor}`);
          expect(quiet.rows).toEqual([]);
          expect(quiet.next_cursor).toEqual(expect.any(String));
          const newest = newestFirst(rows)[0] as QueryLogRow;
          const arrived: QueryLogRow[] = [1, 2, 3].map((step) => ({
            ...newest,
            ts: new Date(newest.ts.getTime() + step),
            rowId: String(9_000_000_000_000 + step),
            qname: `arrived-${step}.example`,
          }));
          await insertRows(writer, arrived);
          await insertTotals(writer, totalsOf(arrived));
          const next = await ok(`/v1/profiles/${profileId}/logs?limit=2&cursor=${quiet.next_cursor}`);
          expect(column(next, 'qname')).toEqual(['arrived-2.example', 'arrived-1.example']);
          const last = await ok(`/v1/profiles/${profileId}/logs?limit=2&cursor=${next.next_cursor}`);
          expect(column(last, 'qname')).toEqual(['arrived-3.example']);
          const none = await ok(`/v1/profiles/${profileId}/logs?limit=2&cursor=${last.next_cursor}`);
          expect(none.rows).toEqual([]);
          rows.push(...arrived);
        });

        it('search pages older with next_cursor through every matching row exactly once, null at the end', async () => {
          const seen: string[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const query = `mode=search&status=blocked&limit=37&${recent()}${cursor === null ? '' : `&cursor=${cursor}`}`;
            const page = await ok(`/v1/profiles/${profileId}/logs?${query}`);
            seen.push(...page.rows.map((row) => `${row[0]}|${row[9]}|${row[5]}`));
            cursor = page.next_cursor;
            pages += 1;
          } while (cursor !== null && pages < 100);
          const expected = newestFirst(rows.filter((row) => row.status === 'blocked')).map(
            (row) => `${row.ts.toISOString()}|${row.qname}|${row.deviceId}`,
          );
          expect(seen).toEqual(expected);
          // The last page says it is the last (null cursor) even when it is full: no empty page after it.
          expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 37)));
        });

        it('a modified, foreign or over-long cursor is 400 invalid_cursor', async () => {
          const page = await ok(`/v1/profiles/${profileId}/logs?mode=search&limit=3&${recent()}`);
          const cursor = page.next_cursor as string;
          const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
          for (const query of [
            `mode=search&limit=3&${recent()}&cursor=${flipped}`,
            `mode=search&limit=3&${recent()}&status=error&cursor=${cursor}`,
            `mode=tail&limit=3&${recent()}&cursor=${cursor}`,
            `mode=search&limit=3&${recent()}&cursor=${'a'.repeat(513)}`,
          ]) {
            const answer = await get(`/v1/profiles/${profileId}/logs?${query}`);
            expect(answer.status, query).toBe(400);
            expect(problemOf(answer).code).toBe('invalid_cursor');
          }
          const other = await ok(`/v1/profiles/${noneId}/logs?mode=search&limit=3&${recent()}`);
          expect(other.next_cursor).toBeNull();
        });

        it('filters by device, status, qtype, list and client_ip, repeated, and qname exact for tail', async () => {
          const [device] = devices;
          const sample = rows.find((row) => row.reasonListId !== null) as QueryLogRow;
          const cases: [string, (row: QueryLogRow) => boolean][] = [
            [`device=${device?.id}`, (row) => row.deviceId === device?.id],
            ['status=blocked&status=error', (row) => row.status === 'blocked' || row.status === 'error'],
            ['qtype=28&qtype=65', (row) => row.qtype === 28 || row.qtype === 65],
            [`list=${sample.reasonListId}`, (row) => row.reasonListId === sample.reasonListId],
            [`client_ip=${sample.clientIp}`, (row) => row.clientIp === sample.clientIp],
            [`qname=${sample.qname}`, (row) => row.qname === sample.qname],
          ];
          for (const [query, keep] of cases) {
            const result = await ok(`/v1/profiles/${profileId}/logs?limit=1000&${query}`);
            const expected = newestFirst(rows.filter(keep)).slice(0, 1000);
            expect(result.rows.length, query).toBe(expected.length);
            expect(column(result, 'ts'), query).toEqual(expected.map((row) => row.ts.toISOString()));
          }
        });

        it('search matches qname as a substring, tail as the exact name', async () => {
          const part = 'google';
          const search = await ok(
            `/v1/profiles/${profileId}/logs?mode=search&limit=1000&qname=${part}&${recent()}`,
          );
          const expected = rows.filter((row) => row.qname.includes(part));
          expect(expected.length).toBeGreaterThan(0);
          expect(search.rows.length).toBe(Math.min(1000, expected.length));
          const tail = await ok(`/v1/profiles/${profileId}/logs?limit=1000&qname=${part}`);
          expect(tail.rows).toEqual([]);
        });

        it('from and to take RFC 3339 or Unix milliseconds: from inclusive, to exclusive', async () => {
          const sorted = newestFirst(rows);
          const to = (sorted[10] as QueryLogRow).ts;
          const from = (sorted[40] as QueryLogRow).ts;
          const expected = newestFirst(within(rows, from, to));
          const byMs = await ok(
            `/v1/profiles/${profileId}/logs?mode=search&from=${from.getTime()}&to=${to.getTime()}`,
          );
          const byText = await ok(
            `/v1/profiles/${profileId}/logs?mode=search&from=${from.toISOString()}&to=${encodeURIComponent(to.toISOString().replace('Z', '+00:00'))}`,
          );
          expect(column(byMs, 'ts')).toEqual(expected.map((row) => row.ts.toISOString()));
          expect(column(byText, 'ts')).toEqual(column(byMs, 'ts'));
        });
      });

      describe('GET /v1/profiles/{id}/analytics/{shape}', () => {
        it('counts_by_status filtered by time only comes from the hourly totals, in whole hours', async () => {
          const from = new Date(now.getTime() - 30 * HOUR + 17 * 60_000);
          const result = await ok(
            `/v1/profiles/${profileId}/analytics/counts_by_status?from=${from.getTime()}&to=${now.getTime()}`,
          );
          expect(result.columns).toEqual([
            { name: 'status', type: 'string' },
            { name: 'count', type: 'uint' },
          ]);
          const hourFrom = new Date(Math.floor(from.getTime() / HOUR) * HOUR);
          const hourTo = new Date(Math.ceil(now.getTime() / HOUR) * HOUR);
          expect(result.rows).toEqual(countsByStatus(within(rows, hourFrom, hourTo)));
        });

        it('counts_by_status with a filter counts the rows themselves', async () => {
          const [device] = devices;
          const result = await ok(
            `/v1/profiles/${profileId}/analytics/counts_by_status?${recent(`&device=${device?.id}`)}`,
          );
          expect(result.rows).toEqual(countsByStatus(rows.filter((row) => row.deviceId === device?.id)));
          const two = await ok(
            `/v1/profiles/${profileId}/analytics/counts_by_status?${recent('&status=error&status=blocked')}`,
          );
          expect(two.rows).toEqual(
            countsByStatus(rows).filter(([status]) => status === 'blocked' || status === 'error'),
          );
        });

        it('timeline: one row per bucket with queries, oldest first, a count per status', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/timeline?${recent()}`);
          expect(result.columns.map((entry) => entry.name)).toEqual([
            'ts',
            'allowed',
            'blocked',
            'rewritten',
            'error',
          ]);
          const buckets = new Map<number, number[]>();
          for (const row of rows) {
            const bucket = Math.floor(row.ts.getTime() / HOUR) * HOUR;
            const counts = buckets.get(bucket) ?? [0, 0, 0, 0];
            const index = ['allowed', 'blocked', 'rewritten', 'error'].indexOf(row.status);
            counts[index] = (counts[index] ?? 0) + 1;
            buckets.set(bucket, counts);
          }
          const expected = [...buckets.entries()]
            .sort(([a], [b]) => a - b)
            .map(([bucket, counts]) => [new Date(bucket).toISOString(), ...counts]);
          expect(result.rows).toEqual(expected);
          // From the totals a sub-hour bucket reports whole hours.
          const minute = await ok(`/v1/profiles/${profileId}/analytics/timeline?bucket=60&${recent()}`);
          expect(minute.rows).toEqual(expected);
        });

        it('timeline with a filter buckets the rows at the width asked', async () => {
          const result = await ok(
            `/v1/profiles/${profileId}/analytics/timeline?bucket=900&${recent('&status=blocked')}`,
          );
          const counts = new Map<number, number>();
          for (const row of rows.filter((one) => one.status === 'blocked')) {
            const bucket = Math.floor(row.ts.getTime() / 900_000) * 900_000;
            counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
          }
          expect(result.rows).toEqual(
            [...counts.entries()]
              .sort(([a], [b]) => a - b)
              .map(([bucket, count]) => [new Date(bucket).toISOString(), 0, count, 0, 0]),
          );
        });

        it('top_domains: qname, count; most first, ties by name; limit', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_domains?${recent('&limit=25')}`);
          expect(result.columns).toEqual([
            { name: 'qname', type: 'string' },
            { name: 'count', type: 'uint' },
          ]);
          expect(result.rows).toEqual(topBy(rows, (row) => row.qname, 25));
          expect(result.next_cursor).toBeNull();
        });

        it('top_blocked counts blocked queries only', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_blocked?${recent()}`);
          expect(result.rows).toEqual(topBy(rows, (row) => (row.status === 'blocked' ? row.qname : null)));
          const allowed = await ok(
            `/v1/profiles/${profileId}/analytics/top_blocked?${recent('&status=allowed')}`,
          );
          expect(allowed.rows).toEqual([]);
        });

        it('top_devices groups by device id with the display name when set (rule 3)', async () => {
          const named = devices[1] as { id: string; name: string };
          const patched = await send(`${api.url}/v1/profiles/${profileId}/devices/${named.id}`, {
            method: 'PATCH',
            headers: owner.auth,
            body: { display_name: 'Den TV' },
          });
          expect(patched.status).toBe(200);
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_devices?${recent()}`);
          expect(result.columns.map((entry) => entry.name)).toEqual(['device_id', 'device_name', 'count']);
          const expected = topBy(rows, (row) => (row.deviceId === '' ? null : row.deviceId));
          const names = new Map(devices.map((device) => [device.id, device.name]));
          names.set(named.id, 'Den TV');
          expect(result.rows).toEqual(expected.map(([id, count]) => [id, names.get(id), count]));
          const logs = await ok(`/v1/profiles/${profileId}/logs?device=${named.id}&limit=3`);
          expect(column(logs, 'device_name')).toEqual(['Den TV', 'Den TV', 'Den TV']);
        });

        it('destinations: allowed queries by answer address with country and owner (rule 5)', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/destinations?${recent('&limit=50')}`);
          expect(result.columns.map((entry) => entry.name)).toEqual(['ip', 'count', 'country', 'owner']);
          const expected = topBy(rows, (row) => (row.status === 'allowed' ? row.answerIps : null), 50);
          // No GeoIP database configured: every country is empty.
          expect(result.rows).toEqual(expected.map(([ip, count]) => [ip, count, '', ownerOfAddress(ip)]));
          expect(result.rows.some((row) => row[3] !== '')).toBe(true);
        });

        it('top_reasons: blocked and rewritten queries by what decided them, ties by code, list, reason (rule 4)', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_reasons?${recent()}`);
          expect(result.columns).toEqual([
            { name: 'reason_code', type: 'string' },
            { name: 'list_id', type: 'uint' },
            { name: 'reason', type: 'string' },
            { name: 'count', type: 'uint' },
          ]);
          const groups = new Map<string, [string, number | null, string, number]>();
          for (const row of rows) {
            if (row.status !== 'blocked' && row.status !== 'rewritten') continue;
            const [reason, code] = expectedReason(row);
            const listId = code === 'list' ? row.reasonListId : null;
            const key = JSON.stringify([code, listId, reason]);
            const group = groups.get(key) ?? [code, listId, reason, 0];
            group[3] += 1;
            groups.set(key, group);
          }
          const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
          const expected = [...groups.values()].sort(
            (a, b) => b[3] - a[3] || text(a[0], b[0]) || (a[1] ?? -1) - (b[1] ?? -1) || text(a[2], b[2]),
          );
          expect(result.rows).toEqual(expected);
          expect(result.rows.some((row) => row[0] === 'rewrite')).toBe(true);
        });

        it('top_owners: owner by name suffix, else first classified answer; unclassified left out (rule 6)', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_owners?${recent()}`);
          expect(result.columns.map((entry) => entry.name)).toEqual(['owner', 'count']);
          const expected = topBy(rows, (row) => {
            const owner = ownerOfQuery(row.qname, row.answerIps);
            return owner === '' ? null : owner;
          });
          expect(result.rows).toEqual(expected);
          expect(expected.length).toBeGreaterThan(3);
        });

        it('top_pops: pop, count; default limit 10, at most 100 (rule 7)', async () => {
          const result = await ok(`/v1/profiles/${profileId}/analytics/top_pops?${recent()}`);
          expect(result.rows).toEqual(topBy(rows, (row) => (row.pop === '' ? null : row.pop), 10));
          const one = await ok(`/v1/profiles/${profileId}/analytics/top_pops?${recent('&limit=1')}`);
          expect(one.rows).toHaveLength(1);
          const tooMany = await get(`/v1/profiles/${profileId}/analytics/top_pops?${recent('&limit=101')}`);
          expect(tooMany.status).toBe(422);
          expect(problemOf(tooMany).errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
        });
      });

      describe('validation and guardrails (spec 7, 8; ROUTES.md)', () => {
        it('malformed parameters are 422 validation_failed naming each parameter', async () => {
          const cases: [string, string][] = [
            ['logs?limit=0', 'limit'],
            ['logs?limit=1001', 'limit'],
            ['logs?mode=stream', 'mode'],
            ['logs?from=yesterday', 'from'],
            ['logs?to=2026-13-01T00:00:00Z', 'to'],
            ['logs?status=fine', 'status.0'],
            [`logs?qname=${'a'.repeat(254)}`, 'qname'],
            ['logs?qtype=AAAA', 'qtype.0'],
            ['logs?list=70000', 'list.0'],
            ['logs?client_ip=300.1.1.1', 'client_ip'],
            ['analytics/timeline?bucket=59', 'bucket'],
            ['analytics/timeline?bucket=86401', 'bucket'],
            ['analytics/everything', 'shape'],
          ];
          for (const [path, field] of cases) {
            const answer = await get(`/v1/profiles/${profileId}/${path}`);
            expect(answer.status, path).toBe(422);
            const problem = problemOf(answer);
            expect(problem.code, path).toBe('validation_failed');
            expect(
              (problem.errors as { field: string }[]).map((error) => error.field),
              path,
            ).toContain(field);
          }
        });

        it('a range wider than the shape allows is 422 range_too_large naming from', async () => {
          for (const [path, days] of [
            ['logs?mode=search', 32],
            ['analytics/destinations', 32],
            ['analytics/top_domains', 401],
          ] as const) {
            const from = now.getTime() - days * DAY;
            const answer = await get(
              `/v1/profiles/${profileId}/${path}${path.includes('?') ? '&' : '?'}from=${from}&to=${now.getTime()}`,
            );
            expect(answer.status, path).toBe(422);
            const problem = problemOf(answer);
            expect(problem.code).toBe('range_too_large');
            expect(problem.errors).toEqual([{ field: 'from', message: expect.any(String) }]);
          }
          // A tail is uncapped.
          const tail = await get(`/v1/profiles/${profileId}/logs?from=${now.getTime() - 900 * DAY}&limit=1`);
          expect(tail.status).toBe(200);
        });

        it('an empty budget is 429 too_many_queries with Retry-After; it refills with time (spec 8)', async () => {
          const spender = await createAccount(api);
          const id = await createProfile(spender);
          // Without from, top_domains spans 400 days: 800 units of the 1,200.
          const first = await get(`/v1/profiles/${id}/analytics/top_domains`, spender);
          expect(first.status).toBe(200);
          const second = await get(`/v1/profiles/${id}/analytics/top_domains`, spender);
          expect(second.status).toBe(429);
          const problem = problemOf(second);
          expect(problem.code).toBe('too_many_queries');
          expect(Number(second.headers['retry-after'])).toBe(problem.retry_after);
          expect(problem.retry_after).toBe(20);
          // Another organisation has its own budget.
          expect((await get(`/v1/profiles/${profileId}/logs?limit=1`)).status).toBe(200);
          api.clock.advance(20_000);
          expect((await get(`/v1/profiles/${id}/analytics/top_domains`, spender)).status).toBe(200);
        });
      });

      describe('SDK (spec 9.3)', () => {
        it('queries logs and analytics and reads rows by column name', async () => {
          const sdk = createClient({ baseUrl: api.url, token: owner.token, maxRetries: 0 });
          const from = new Date(now.getTime() - 3 * DAY);
          const tail = await sdk.profiles.logs.query(profileId, {
            limit: 2,
            status: ['blocked', 'rewritten'],
          });
          const expected = newestFirst(
            rows.filter((row) => row.status === 'blocked' || row.status === 'rewritten'),
          );
          expect(queryRecords(tail).map((record) => [record.qname, record.status])).toEqual(
            expected.slice(0, 2).map((row) => [row.qname, row.status]),
          );
          const top = await sdk.profiles.analytics.topDomains(profileId, { from, to: now, limit: 3 });
          expect(queryRecords(top)).toEqual(
            topBy(rows, (row) => row.qname, 3).map(([qname, count]) => ({ qname, count })),
          );
          const refused = await sdk.profiles.analytics
            .query(profileId, 'timeline', { from, to: now, bucket: 59 })
            .catch((error: unknown) => error);
          expect(refused).toMatchObject({ status: 422, code: 'validation_failed' });
        });
      });

      describe('routing by log destination (spec 4.6 rules 1–2)', () => {
        it('none: logs and top shapes answer empty with source none; time-only counts come from the totals', async () => {
          const tail = await ok(`/v1/profiles/${noneId}/logs`);
          expect(tail).toMatchObject({
            shape: 'tail',
            source: 'none',
            rows: [],
            partial: false,
            next_cursor: null,
          });
          expect(tail.columns).toHaveLength(LOG_COLUMNS.length);
          const top = await ok(`/v1/profiles/${noneId}/analytics/top_domains?${recent()}`);
          expect(top).toMatchObject({ source: 'none', rows: [] });
          const counts = await ok(`/v1/profiles/${noneId}/analytics/counts_by_status?${recent()}`);
          expect(counts.source).toBe('columnar');
          expect(counts.rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(300);
          const timeline = await ok(`/v1/profiles/${noneId}/analytics/timeline?${recent()}`);
          expect(timeline.source).toBe('columnar');
          expect(timeline.rows.length).toBeGreaterThan(0);
          const filtered = await ok(
            `/v1/profiles/${noneId}/analytics/counts_by_status?${recent('&status=blocked')}`,
          );
          expect(filtered).toMatchObject({ source: 'none', rows: [] });
        });

        it('a destination changed between two queries routes the next one by the new destination', async () => {
          const destination = async (value: string) => {
            const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
              method: 'PATCH',
              headers: { ...owner.auth, 'content-type': 'application/merge-patch+json' },
              body: { settings: { log_destination: value } },
            });
            expect(patched.status).toBe(200);
          };
          // Read twice: the server now expects this profile's queries to go to the columnar store.
          for (let read = 0; read < 2; read += 1) {
            expect((await ok(`/v1/profiles/${profileId}/logs`)).rows.length).toBeGreaterThan(0);
          }
          await destination('none');
          try {
            expect(await ok(`/v1/profiles/${profileId}/logs`)).toMatchObject({ source: 'none', rows: [] });
            expect(await ok(`/v1/profiles/${profileId}/analytics/top_domains?${recent()}`)).toMatchObject({
              source: 'none',
              rows: [],
            });
          } finally {
            await destination('cloud');
          }
          expect(await ok(`/v1/profiles/${profileId}/logs`)).toMatchObject({ source: 'columnar' });
        });

        it('self-hosted: relayed to the node, 503 node_offline with Retry-After while none is connected', async () => {
          for (const path of ['logs', 'analytics/top_domains', 'analytics/counts_by_status?status=allowed']) {
            const answer = await get(`/v1/profiles/${selfHostedId}/${path}`);
            expect(answer.status, path).toBe(503);
            expect(problemOf(answer).code).toBe('node_offline');
            expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
            expect(problemOf(answer).retry_after).toBe(Number(answer.headers['retry-after']));
          }
          const counts = await ok(`/v1/profiles/${selfHostedId}/analytics/counts_by_status?${recent()}`);
          expect(counts.source).toBe('columnar');
          expect(counts.rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(300);
        });
      });

      describe('access (spec 5.3, 5.4, 1.9)', () => {
        it('logs need logs:read and analytics need analytics:read', async () => {
          const logsOnly = await createAccount(api, ['logs:read']);
          const analyticsOnly = await createAccount(api, ['analytics:read']);
          const logsId = await createProfile(owner);
          expect((await get(`/v1/profiles/${logsId}/logs`, logsOnly)).status).toBe(404);
          const mine = await send(`${api.url}/v1/profiles`, {
            method: 'POST',
            headers: { cookie: `svc_session=${logsOnly.cookie}` },
            body: {},
          });
          const id = (mine.json as { id: string }).id;
          expect((await get(`/v1/profiles/${id}/logs`, logsOnly)).status).toBe(200);
          const refused = await get(`/v1/profiles/${id}/analytics/top_domains`, logsOnly);
          expect(refused.status).toBe(403);
          expect(problemOf(refused).code).toBe('insufficient_scope');
          const mine2 = await send(`${api.url}/v1/profiles`, {
            method: 'POST',
            headers: { cookie: `svc_session=${analyticsOnly.cookie}` },
            body: {},
          });
          const id2 = (mine2.json as { id: string }).id;
          expect((await get(`/v1/profiles/${id2}/analytics/counts_by_status`, analyticsOnly)).status).toBe(
            200,
          );
          const refusedLogs = await get(`/v1/profiles/${id2}/logs`, analyticsOnly);
          expect(refusedLogs.status).toBe(403);
          expect(problemOf(refusedLogs).code).toBe('insufficient_scope');
        });

        it('another organisation’s profile is 404 on both endpoints', async () => {
          for (const path of ['logs', 'analytics/top_domains', 'analytics/counts_by_status']) {
            const answer = await get(`/v1/profiles/${profileId}/${path}`, stranger);
            expect(answer.status, path).toBe(404);
            expect(problemOf(answer).code).toBe('not_found');
          }
        });
      });
    },
  );
}
