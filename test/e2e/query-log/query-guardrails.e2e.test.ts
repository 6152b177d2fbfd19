import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { columnarClient, columnarStore } from './query-log.seed.js';

/**
 * The guardrails of spec 8 that the store enforces, through HTTP on a real columnar store: the cloud query
 * ceilings (422 query_too_expensive), the run-time limit (504 query_timeout, the query cancelled on the store)
 * and the 4 concurrent queries per organisation (a fifth waits up to 5 s, then 429 too_many_queries). The
 * ceilings are server settings (RUNNER.md); the tests lower them so that a small table crosses them.
 */

const serverUrl = process.env.CLICKHOUSE_URL;
if (serverUrl === undefined) {
  console.warn('query guardrails on a ClickHouse server skipped: CLICKHOUSE_URL is not set');
}

/** Rows of the large profile: one a millisecond, so a range of `n` ms holds `n` of them. */
const ROWS = 200_000;

interface Stores {
  label: string;
  env: Record<string, string>;
  skip: boolean;
}

const STORES: Stores[] = [
  { label: 'embedded chdb', env: {}, skip: false },
  {
    label: 'a ClickHouse server',
    env: serverUrl === undefined ? {} : { CLICKHOUSE_URL: serverUrl },
    skip: serverUrl === undefined,
  },
];

interface ServerWithRows {
  api: ApiHarness;
  owner: TestAccount;
  profileId: string;
  start: number;
  client: ClickHouseClient;
}

/** A server with `settings`, an account, and a cloud profile holding {@link ROWS} rows from `start`. */
async function serverWithRows(stores: Stores, settings: Record<string, string>): Promise<ServerWithRows> {
  const api = await startApi('pglite', { ...stores.env, ...settings });
  const owner = await createAccount(api);
  const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
  expect(created.status).toBe(201);
  const profileId = (created.json as { id: string }).id;
  const client = await columnarClient(api);
  const start = api.clock.now().getTime() - 3_600_000;
  // Generated on the store itself: enough rows to cross the lowered ceilings.
  await client.command({
    query: `INSERT INTO query_log (profile_id, ts, row_id, qname, status, retention_days)
            SELECT {p:String}, fromUnixTimestamp64Milli({start:Int64} + toInt64(number), 'UTC'), number,
                   concat('n', toString(number % 977), '.example'), 'allowed', 90
            FROM numbers({rows:UInt64})`,
    query_params: { p: profileId, start, rows: ROWS },
  });
  return { api, owner, profileId, start, client };
}

/** top_domains over `ms` milliseconds of the large profile's rows. */
function topDomains(server: ServerWithRows, ms = ROWS): Promise<RawAnswer> {
  return send(
    `${server.api.url}/v1/profiles/${server.profileId}/analytics/top_domains?from=${server.start}&to=${server.start + ms}`,
    { headers: server.owner.auth },
  );
}

/** Queries of the log table the store is still running, other than this one. */
async function runningLogQueries(client: ClickHouseClient): Promise<number> {
  const result = await client.query({
    query: `SELECT count() AS running FROM system.processes
            WHERE query LIKE '%query_log%' AND query NOT LIKE '%system.processes%'`,
    format: 'JSONEachRow',
  });
  return Number((await result.json<{ running: string | number }>())[0]?.running);
}

/** {@link serverWithRows} for the tests of the enclosing describe: started before them, closed after. */
function serverForTests(stores: Stores, settings: Record<string, string>): () => ServerWithRows {
  let server: ServerWithRows | undefined;
  beforeAll(async () => {
    server = await serverWithRows(stores, settings);
  }, 120_000);
  afterAll(async () => server?.api.close());
  return () => {
    if (server === undefined) throw new Error('the server did not start');
    return server;
  };
}

for (const stores of STORES) {
  describe.skipIf(stores.skip)(`cloud query ceilings on ${stores.label} (spec 8, RUNNER.md)`, () => {
    describe('past SVC_QUERY_MAX_ROWS_TO_READ', () => {
      const server = serverForTests(stores, { SVC_QUERY_MAX_ROWS_TO_READ: '50000' });

      it('is 422 query_too_expensive, without Retry-After; a narrower range answers', async () => {
        const refused = await topDomains(server());
        const problem = expectProblem(refused, 422, 'query_too_expensive');
        expect(problem.detail).toMatch(/50,000 rows/);
        expect(refused.headers['retry-after']).toBeUndefined();
        // Narrowing the range is the remedy (spec 7).
        const narrowed = await topDomains(server(), 10_000);
        expect(narrowed.status, narrowed.text).toBe(200);
        const rows = (narrowed.json as { rows: [string, number][] }).rows;
        expect(rows.reduce((sum, row) => sum + row[1], 0)).toBeGreaterThan(0);
      });
    });

    describe('past SVC_QUERY_MAX_MEMORY_BYTES', () => {
      const server = serverForTests(stores, { SVC_QUERY_MAX_MEMORY_BYTES: '1000' });

      it('is 422 query_too_expensive naming the memory ceiling', async () => {
        const problem = expectProblem(await topDomains(server()), 422, 'query_too_expensive');
        expect(problem.detail).toMatch(/1000 bytes of memory/);
      });
    });

    describe('past SVC_QUERY_TIMEOUT_SECONDS', () => {
      const server = serverForTests(stores, { SVC_QUERY_TIMEOUT_SECONDS: '0.000001' });

      it('is 504 query_timeout, and the store no longer runs the query', async () => {
        expectProblem(await topDomains(server()), 504, 'query_timeout');
        expect(await runningLogQueries(server().client)).toBe(0);
      });
    });
  });
}

/**
 * Embedded chdb runs one query at a time per connection, so queries the test itself runs on every connection
 * the API reads on keep the API's queries in their slots for as long as they sleep. A ClickHouse server runs
 * queries side by side, which gives no such hold from outside; the gate is the same code whichever store
 * answers.
 */
describe('4 concurrent queries per organisation on embedded chdb (spec 8)', () => {
  let api: ApiHarness;
  let readers: readonly ClickHouseClient[];
  let owner: TestAccount;
  let stranger: TestAccount;
  let ownerProfile: string;
  let strangerProfile: string;

  const tail = async (account: TestAccount, profileId: string) => {
    const sent = Date.now();
    const answer = await send(`${api.url}/v1/profiles/${profileId}/logs?limit=1`, { headers: account.auth });
    return { answer, ms: Date.now() - sent };
  };
  /** Keeps every connection the API reads on busy for `halfSeconds` half seconds. */
  const occupyStore = (halfSeconds: number) =>
    Promise.all(
      readers.map((reader) =>
        reader.query({
          query: `SELECT sum(sleepEachRow(0.5)) AS slept FROM numbers(${halfSeconds}) SETTINGS max_block_size = 1`,
          format: 'JSONEachRow',
        }),
      ),
    );
  const profileOf = async (account: TestAccount) => {
    const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: account.auth, body: {} });
    expect(created.status).toBe(201);
    return (created.json as { id: string }).id;
  };

  beforeAll(async () => {
    api = await startApi('pglite');
    readers = (await columnarStore(api)).reads.connections;
    owner = await createAccount(api);
    stranger = await createAccount(api);
    ownerProfile = await profileOf(owner);
    strangerProfile = await profileOf(stranger);
  }, 120_000);
  afterAll(async () => api?.close());

  it('a fifth query waits 5 s for a slot, then is 429 too_many_queries with Retry-After; other organisations go on', async () => {
    const busy = occupyStore(20);
    const queries = Array.from({ length: 5 }, () => tail(owner, ownerProfile));
    const other = tail(stranger, strangerProfile);
    const answers = await Promise.all(queries);
    await busy;
    const refused = answers.filter(({ answer }) => answer.status === 429);
    expect(refused).toHaveLength(1);
    const [{ answer, ms }] = refused as [{ answer: RawAnswer; ms: number }];
    const problem = expectProblem(answer, 429, 'too_many_queries');
    expect(Number(answer.headers['retry-after'])).toBe(problem.retry_after);
    expect(problem.retry_after).toBeGreaterThanOrEqual(1);
    // It waited out the 5 s, and was refused while the four others still held their slots.
    expect(ms).toBeGreaterThanOrEqual(4_900);
    const served = answers.filter(({ answer }) => answer.status === 200);
    expect(served).toHaveLength(4);
    for (const query of served) expect(query.ms).toBeGreaterThan(ms);
    // Another organisation's query had a slot of its own.
    expect((await other).answer.status).toBe(200);
  }, 30_000);

  it('a query waiting for a slot takes it when one frees within the 5 s', async () => {
    const busy = occupyStore(4);
    const answers = await Promise.all(Array.from({ length: 6 }, () => tail(owner, ownerProfile)));
    await busy;
    expect(answers.map(({ answer }) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  }, 30_000);
});
