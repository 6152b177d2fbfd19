import { createClient, isAuth, isNotFound, type LogStreamEvent, queryRecords } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { edgeLogWriter, insertRows, simulatedRows } from './query-log/query-log.seed.js';

/**
 * The fetch transport (browsers' one, chosen with `transport: 'fetch'` or a `fetch` option) against the real
 * server. Retries, time-outs, aborts, paging and stream resume of both transports are in
 * sdk-reliability.e2e.test.ts against a fault-injecting server.
 */
describe('SDK fetch transport on the real server', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
  });
  afterAll(async () => api.close());

  it('signs in with a session cookie read from Set-Cookie, then signs out', async () => {
    const client = createClient({ baseUrl: api.url, transport: 'fetch', origin: 'http://localhost:3000' });
    const account = await client.auth.login({ email: owner.email, password: 'correct horse battery' });
    expect(account.email).toBe(owner.email);
    expect(client.sessionCookie()).toMatch(/.+/);
    expect((await client.auth.me()).email).toBe(owner.email);
    await client.auth.logout();
    expect(client.sessionCookie()).toBeUndefined();
    expect(isAuth(await client.auth.me().catch((error: unknown) => error))).toBe(true);
  });

  it('creates, updates with If-Match, auto-pages and throws ApiError with the request id', async () => {
    const client = createClient({ baseUrl: api.url, token: owner.token, transport: 'fetch' });
    const created = [];
    for (const name of ['one', 'two', 'three']) created.push(await client.profiles.create({ name }));
    const first = created[0];
    if (first === undefined) throw new Error('no profile created');
    const renamed = await client.profiles.update(first.id, { name: 'renamed' }, { ifMatch: first.version });
    expect(renamed.name).toBe('renamed');
    const names: string[] = [];
    for await (const profile of client.profiles.list({ limit: 2 })) names.push(profile.name);
    expect(names).toEqual(expect.arrayContaining(['renamed', 'two', 'three']));

    const missing = await client.profiles.get('zz99zz').catch((error: unknown) => error);
    expect(isNotFound(missing)).toBe(true);
    if (isNotFound(missing)) expect(missing.requestId).toBeTruthy();
  });

  it('calls the fetch function it is given, with the credentials mode a browser needs across origins', async () => {
    const sent: { url: string; credentials: string | undefined }[] = [];
    const client = createClient({
      baseUrl: api.url,
      token: owner.token,
      credentials: 'include',
      fetch: (input, init) => {
        sent.push({ url: String(input), credentials: init?.credentials });
        return fetch(input, init);
      },
    });
    expect((await client.meta.get()).api_version).toBeTruthy();
    expect(sent).toEqual([{ url: `${api.url}/v1/meta`, credentials: 'include' }]);
  });
});

describe('SDK fetch transport on the live log stream (embedded columnar store)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  beforeAll(async () => {
    api = await startApi('pglite');
    owner = await createAccount(api);
  });
  afterAll(async () => api.close());

  it('reads the latest rows of the live stream, then resumes from its cursor with only newer rows', async () => {
    const client = createClient({ baseUrl: api.url, token: owner.token, transport: 'fetch' });
    const profile = await client.profiles.create({
      name: 'streamed',
      settings: { log_destination: 'cloud' },
    });
    const traffic = (queries: number, seed: number, now: Date) =>
      simulatedRows(
        {
          id: profile.id,
          settings: {
            block_mode: 'nxdomain',
            logs_enabled: true,
            log_client_ip: true,
            log_domains: true,
            log_destination: 'cloud',
            retention_days: 30,
          },
          rules: { deny: [], allow: [], rewrites: [] },
          lists: [],
          suspended: false,
        },
        { queries, days: 1, devices: 1, seed, now },
      ).rows;
    const store = await edgeLogWriter(api);
    const earlier = traffic(20, 1, new Date(api.clock.now().getTime() - 120_000));
    await insertRows(store, earlier);

    const first = await firstRows(client.profiles.logs.stream(profile.id, { limit: 5 }));
    expect(queryRecords(first.result)).toHaveLength(5);
    expect(first.cursor).toEqual(expect.any(String));

    const later = traffic(3, 2, new Date(api.clock.now().getTime() - 5_000)).map((row, index) => ({
      ...row,
      ts: new Date(api.clock.now().getTime() - 5_000 + index),
      rowId: String(9_000_000_000n + BigInt(index)),
    }));
    await insertRows(store, later);
    const resumed = await firstRows(
      client.profiles.logs.stream(profile.id, {
        limit: 50,
        ...(first.cursor === undefined ? {} : { cursor: first.cursor }),
      }),
    );
    expect(queryRecords(resumed.result).map((record) => record.qname)).toEqual(
      [...later].reverse().map((row) => row.qname),
    );
  });
});

/** The first `rows` event of a stream, which is then closed. */
async function firstRows(
  stream: AsyncGenerator<LogStreamEvent>,
): Promise<Extract<LogStreamEvent, { type: 'rows' }>> {
  for await (const event of stream) if (event.type === 'rows') return event;
  throw new Error('the stream ended without rows');
}
