import { EdgeLogWriter } from '@svc/domain';
import { type DataExportScheduler, DataExportSchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { recentLogRows } from './recent-log-rows.js';

/**
 * The export archive holds the query logs of the organisation's profiles as JSON lines after the account's
 * data (issue 5), read from the columnar store in pages: PGlite with embedded chdb.
 */
describe('query logs in the data export on pglite + chdb (issue 5)', () => {
  let api: ApiHarness;
  let job: DataExportScheduler;
  beforeAll(async () => {
    api = await startApi('pglite');
    job = await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
    await job.stop();
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: string, path: string, headers: Record<string, string>, body?: object) =>
    send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const session = (owner: TestAccount) => ({ cookie: `svc_session=${owner.cookie}` });
  const createProfile = async (owner: TestAccount, name: string) => {
    const answer = await call('POST', '/v1/profiles', owner.auth, { name });
    expect(answer.status).toBe(201);
    return (answer.json as { id: string }).id;
  };

  it("adds every stored query of each profile, newest first, and no other organisation's", async () => {
    const owner = await createAccount(api);
    const other = await createAccount(api);
    // More rows than one page of the export's reads (1,000), so that paging is exercised.
    const busy = await createProfile(owner, 'Busy');
    const quiet = await createProfile(owner, 'Quiet');
    const foreign = await createProfile(other, 'Foreign');
    const writer = await api.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
    await writer.writeRows(recentLogRows(busy, 2_345), 30);
    await writer.writeRows(recentLogRows(quiet, 3), 30);
    await writer.writeRows(recentLogRows(foreign, 5), 30);

    const started = await call('POST', '/v1/auth/me/exports', session(owner));
    expect(started.status).toBe(202);
    const id = (started.json as { export: { id: string } }).export.id;
    expect((await job.runOnce()).built).toBeGreaterThanOrEqual(1);
    const download = await call('GET', `/v1/auth/me/exports/${id}/download`, session(owner));
    expect(download.status).toBe(200);
    expect(Buffer.byteLength(download.text)).toBe(
      (
        (await call('GET', `/v1/auth/me/exports/${id}`, session(owner))).json as {
          export: { size_bytes: number };
        }
      ).export.size_bytes,
    );

    const records = download.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; profile_id?: string; ts?: string; qname?: string });
    expect(records[0]?.type).toBe('account_data');
    const logs = records.slice(1);
    expect(logs.every((record) => record.type === 'query_log')).toBe(true);
    const of = (profileId: string) => logs.filter((record) => record.profile_id === profileId);
    expect(of(busy)).toHaveLength(2_345);
    expect(new Set(of(busy).map((record) => record.qname)).size).toBe(2_345);
    expect(of(quiet).map((record) => record.qname)).toEqual(['n2.example', 'n1.example', 'n0.example']);
    expect(of(foreign)).toEqual([]);
    const times = of(busy).map((record) => Date.parse(record.ts ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(logs[0]).toMatchObject({
      type: 'query_log',
      device_id: 'dev1',
      client_ip: '192.0.2.1',
      transport: 'doh',
      qtype: 1,
      answer_ips: ['192.0.2.53'],
      node: null,
    });
  }, 120_000);
});
