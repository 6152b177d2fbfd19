import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseStub } from '../bench/clickhouse-stub.js';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { problemOf, send } from '../support/http.js';
import { freePort } from '../support/private-engines.js';

/**
 * Issue 10, faults: CLICKHOUSE_URL names a ClickHouse server that does not answer (a closed port). The API
 * server still starts and serves everything that does not need ClickHouse; log and analytics queries answer
 * 503 (code internal) problems with Retry-After (a condition a client retries), never 500.
 */
if (postgresServerSkipReason !== undefined)
  console.warn(`ClickHouse outage fault test skipped: ${postgresServerSkipReason}`);

describe.skipIf(postgresServerSkipReason !== undefined)('ClickHouse server unavailable', () => {
  let api: ApiHarness;
  let account: TestAccount;
  let profileId: string;
  let closedPort: number;
  let stub: { close(): Promise<void> } | undefined;

  beforeAll(async () => {
    closedPort = await freePort();
    api = await startApi('postgres', { CLICKHOUSE_URL: `http://127.0.0.1:${closedPort}` });
    account = await createAccount(api);
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: account.auth,
      body: { name: 'logged' },
    });
    expect(created.status).toBe(201);
    profileId = (created.json as { id: string }).id;
  });

  afterAll(async () => {
    await api?.close();
    await stub?.close();
  });

  it.each([
    ['log search', () => `/v1/profiles/${profileId}/logs?limit=5`],
    ['analytics', () => `/v1/profiles/${profileId}/analytics/top_domains`],
  ])('answers %s with a 503 (code internal) problem', async (_name, path) => {
    const answer = await send(`${api.url}${path()}`, { headers: account.auth });
    expect(answer.status).toBe(503);
    expect(problemOf(answer)).toMatchObject({ status: 503, code: 'internal' });
    expect(answer.headers['retry-after']).toBe('1');
  });

  it('keeps the rest of the API working: profiles, token auth, readiness', async () => {
    const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
      method: 'PATCH',
      headers: { ...account.auth, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ name: 'still writable' }),
    });
    expect(patched.status).toBe(200);
    const read = await send(`${api.url}/v1/profiles/${profileId}`, { headers: account.auth });
    expect(read.status).toBe(200);
    expect((read.json as { name: string }).name).toBe('still writable');
    expect((await send(`${api.url}/v1/auth/me`, { headers: account.auth })).status).toBe(200);
    expect((await send(`${api.url}/readyz`)).status).toBe(200);
  });

  it('answers log queries again once ClickHouse answers, without a restart', async () => {
    // A stand-in that accepts the migrations and answers every SELECT with no rows.
    stub = await startClickHouseStub(closedPort);
    const answer = await send(`${api.url}/v1/profiles/${profileId}/logs?limit=5`, { headers: account.auth });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ shape: 'tail', source: 'columnar', partial: false });
  });
});
