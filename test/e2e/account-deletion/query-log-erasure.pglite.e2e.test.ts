import type { ClickHouseClient } from '@clickhouse/client';
import { EdgeLogWriter } from '@svc/domain';
import { type AccountErasureScheduler, AccountErasureSchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { recentLogRows } from '../exports/recent-log-rows.js';
import { columnarClient, totalsOf } from '../query-log/query-log.seed.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const withCookie = (account: TestAccount) => ({ cookie: `svc_session=${account.cookie}` });

/**
 * Account erasure also erases the organisation's profiles' query logs, hourly totals and device counts in the
 * columnar store (spec 3; issue 5), and only theirs: PGlite with embedded chdb.
 */
describe('account erasure in the columnar store on pglite + chdb (spec 3)', () => {
  let api: ApiHarness;
  let client: ClickHouseClient;
  beforeAll(async () => {
    api = await startApi('pglite');
    client = await columnarClient(api);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: string, path: string, headers: Record<string, string>, body?: object) =>
    send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const createProfile = async (owner: TestAccount) => {
    const answer = await call('POST', '/v1/profiles', owner.auth, { name: 'Home' });
    expect(answer.status).toBe(201);
    return (answer.json as { id: string }).id;
  };
  /** Rows of each table for the profile, by table. */
  const stored = async (profileId: string) => {
    const counts: Record<string, number> = {};
    for (const table of ['query_log', 'query_totals_hourly', 'device_counts_hourly']) {
      const result = await client.query({
        query: `SELECT count() AS n FROM ${table} WHERE profile_id = {profile:String}`,
        query_params: { profile: profileId },
        format: 'JSONEachRow',
      });
      counts[table] = Number((await result.json<{ n: number | string }>())[0]?.n);
    }
    return counts;
  };
  const seed = async (profileId: string) => {
    const writer = await api.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
    const rows = recentLogRows(profileId, 6);
    await writer.writeRows(rows, 30);
    await writer.writeHourlyTotals(totalsOf(rows));
    const hour = new Date(Math.floor((Date.now() - HOUR_MS) / HOUR_MS) * HOUR_MS);
    await writer.writeDeviceCounts([{ profileId, deviceId: 'dev1', hour, queries: 6, blocked: 3 }]);
  };

  it("erases the erased organisation's profiles' logs, totals and device counts, and no one else's", async () => {
    const leaving = await createAccount(api);
    const staying = await createAccount(api);
    const leavingProfiles = [await createProfile(leaving), await createProfile(leaving)];
    const stayingProfile = await createProfile(staying);
    for (const id of [...leavingProfiles, stayingProfile]) await seed(id);
    for (const id of [...leavingProfiles, stayingProfile]) {
      expect(await stored(id)).toEqual({ query_log: 6, query_totals_hourly: 2, device_counts_hourly: 1 });
    }
    const logs = await call('GET', `/v1/profiles/${stayingProfile}/logs`, staying.auth);
    expect(logs.status).toBe(200);

    expect((await call('DELETE', '/v1/auth/me', withCookie(leaving))).status).toBe(202);
    api.clock.advance(30 * DAY_MS);
    const scheduler = await api.container.getAsync<AccountErasureScheduler>(AccountErasureSchedulerToken);
    expect(await scheduler.runOnce()).toBeGreaterThanOrEqual(1);

    for (const id of leavingProfiles) {
      expect(await stored(id)).toEqual({ query_log: 0, query_totals_hourly: 0, device_counts_hourly: 0 });
    }
    expect(await stored(stayingProfile)).toEqual({
      query_log: 6,
      query_totals_hourly: 2,
      device_counts_hourly: 1,
    });
    // Idempotent: another run finds nothing due and erases nothing more.
    expect(await scheduler.runOnce()).toBe(0);
    expect((await stored(stayingProfile)).query_log).toBe(6);
  }, 120_000);
});
