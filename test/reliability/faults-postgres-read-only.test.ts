import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../support/http.js';
import {
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../support/private-engines.js';

/**
 * Issue 35, database failover without the cluster: what a promotion does to the connections of an API server,
 * made on a real PostgreSQL. Its backends are terminated (`pg_terminate_backend`: 57P01 and "Connection
 * terminated" on the pooled connections) and its database turns read-only, as a just-demoted primary or a
 * standby reached by a write does (25006 read_only_sql_transaction). Every write meeting no writable host
 * answers 503 with Retry-After, never 500; once writable again the same server acknowledges writes.
 */
const skipReason = privatePostgresUnavailable();
if (skipReason !== undefined) console.warn(`PostgreSQL read-only fault test skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('PostgreSQL turned read-only under a running server', () => {
  let postgres: PrivatePostgres;
  let admin: pg.Client;
  let api: ApiHarness;
  let account: TestAccount;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    api = await startApi('pglite', { DATABASE_URL: postgres.url, SVC_RATE_LIMIT_PER_MINUTE: '1000000' });
    account = await createAccount(api);
    admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
  }, 60_000);

  afterAll(async () => {
    try {
      await admin?.end();
      await api?.close();
    } finally {
      await postgres?.destroy();
    }
  });

  /** Cuts every connection of the API server, so that its next ones take the database's new defaults. */
  const terminateServerConnections = () =>
    admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = $1',
      ['client backend'],
    );

  const createProfile = (name: string) =>
    send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: account.auth,
      body: { name },
      signal: AbortSignal.timeout(10_000),
    });

  function expectUnavailable(answer: RawAnswer): void {
    expect(answer.status, answer.text).toBe(503);
    expect(problemOf(answer)).toMatchObject({ status: 503, code: 'internal' });
    expect(answer.headers['retry-after']).toBe('1');
  }

  it('answers 503 with Retry-After to a write whose connection is terminated while it runs (57P01)', async () => {
    // The write waits on a lock held here, so that its backend is certainly busy with it when terminated.
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE profiles IN ACCESS EXCLUSIVE MODE');
    const waiting = createProfile('cut');
    try {
      for (let waited = 0; waited < 100; waited += 1) {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        if ((rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await terminateServerConnections();
    } finally {
      await admin.query('ROLLBACK');
    }
    expectUnavailable(await waiting);
    expect((await createProfile('after the cut')).status).toBe(201);
  }, 30_000);

  it('answers 503 with Retry-After to writes on terminated connections and on a read-only database, then recovers', async () => {
    expect((await createProfile('before')).status).toBe(201);

    await admin.query('ALTER DATABASE postgres SET default_transaction_read_only = on');
    await terminateServerConnections();
    const during: RawAnswer[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) during.push(await createProfile(`during ${attempt}`));
    for (const answer of during) expectUnavailable(answer);

    await admin.query('ALTER DATABASE postgres RESET default_transaction_read_only');
    await terminateServerConnections();
    let after: RawAnswer | undefined;
    for (let attempt = 0; attempt < 20 && after?.status !== 201; attempt += 1) {
      after = await createProfile(`after ${attempt}`);
      if (after.status !== 201) expectUnavailable(after);
    }
    expect(after?.status).toBe(201);
  }, 60_000);
});
