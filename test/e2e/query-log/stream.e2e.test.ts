import type { EdgeLogWriter, QueryLogRow } from '@svc/domain';
import type { SimulatedProfile } from '@svc/edge-simulator';
import { createClient } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { type OpenStream, openEventStream, type StreamEvent } from './event-stream-reader.js';
import { newestFirst } from './query-log.expected.js';
import { edgeLogWriter, insertRows, simulatedRows } from './query-log.seed.js';

const HEARTBEAT_MS = 15_000;
const STREAM_MAX_MS = 3_600_000;

interface Result {
  columns: { name: string }[];
  rows: unknown[][];
  next_cursor: string | null;
}

function profileOf(id: string): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: 'cloud',
      retention_days: 30,
    },
    rules: { deny: ['tiktok.com'], allow: [], rewrites: [] },
    lists: [{ id: 1, name: 'StevenBlack unified hosts' }],
    suspended: false,
  };
}

/** Row ids of the rows of a query result (a `rows` event's data), in the order sent. */
function rowIdsOf(data: string, byTs: Map<string, QueryLogRow[]>): string[] {
  const result = JSON.parse(data) as Result;
  const ts = result.columns.findIndex((column) => column.name === 'ts');
  const qname = result.columns.findIndex((column) => column.name === 'qname');
  return result.rows.map((row) => {
    const candidates = byTs.get(String(row[ts])) ?? [];
    const found = candidates.find((candidate) => candidate.qname === row[qname]);
    if (found === undefined) throw new Error(`row ${JSON.stringify(row)} was never written`);
    return found.rowId;
  });
}

/** The query result of an SDK `rows` event, as the raw event's data. */
function dataOf(event: unknown): string {
  const rows = event as { type: string; result: unknown };
  if (rows.type !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(event)}`);
  return JSON.stringify(rows.result);
}

/** The next event that is not a heartbeat comment. */
async function nextEvent(stream: OpenStream): Promise<StreamEvent | null> {
  for (;;) {
    const event = await stream.next();
    if (event === null || event.comment === undefined) return event;
  }
}

/** Live log stream through HTTP (spec 6.1) on PGlite and the embedded columnar store. */
describe('live log stream on pglite (spec 6.1)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let writer: EdgeLogWriter;
  let profileId: string;
  let noneId: string;
  let rows: QueryLogRow[];
  const byTs = new Map<string, QueryLogRow[]>();
  const open: OpenStream[] = [];

  const remember = (written: QueryLogRow[]) => {
    for (const row of written) {
      const key = row.ts.toISOString();
      byTs.set(key, [...(byTs.get(key) ?? []), row]);
    }
  };
  const createProfile = async (destination: string): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: destination } },
    });
    expect(created.status).toBe(201);
    return (created.json as { id: string }).id;
  };
  const stream = async (path: string, headers: Record<string, string> = owner.auth): Promise<OpenStream> => {
    const opened = await openEventStream(`${api.url}${path}`, headers);
    open.push(opened);
    return opened;
  };
  const closeAll = () => {
    for (const opened of open.splice(0)) opened.close();
  };
  /** Rows newer than every row written so far, still before the API's clock. */
  const newerRows = (count: number, seq: number): QueryLogRow[] => {
    const base = api.clock.now().getTime() - 10_000 + seq * 100;
    return newestFirst(rows)
      .slice(0, count)
      .map((row, index) => ({
        ...row,
        ts: new Date(base + index),
        rowId: String(9_000_000_000n + BigInt(seq * 1_000 + index)),
      }));
  };

  beforeAll(async () => {
    api = await startApi('pglite');
    owner = await createAccount(api);
    stranger = await createAccount(api);
    profileId = await createProfile('cloud');
    noneId = await createProfile('none');
    writer = await edgeLogWriter(api);
    rows = simulatedRows(profileOf(profileId), {
      queries: 400,
      days: 1,
      devices: 2,
      seed: 5,
      now: new Date(api.clock.now().getTime() - 60_000),
    }).rows;
    remember(rows);
    await insertRows(writer, rows);
    // Rows under the `none` profile's id: a stream routed wrongly to the columnar store would send them.
    await insertRows(
      writer,
      rows.slice(0, 20).map((row) => ({ ...row, profileId: noneId })),
    );
  }, 120_000);
  afterAll(async () => {
    closeAll();
    await api?.close();
  });

  it('sends the latest rows first, then only rows written later, as text/event-stream', async () => {
    const live = await stream(`/v1/profiles/${profileId}/logs/stream?limit=50`);
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(live.headers['cache-control']).toBe('no-cache');
    const first = await nextEvent(live);
    expect(first?.event).toBe('rows');
    expect(first?.id).toEqual(expect.any(String));
    expect(rowIdsOf((first as StreamEvent).data, byTs)).toEqual(
      newestFirst(rows)
        .slice(0, 50)
        .map((row) => row.rowId),
    );
    const later = newerRows(3, 1);
    remember(later);
    await insertRows(writer, later);
    const second = await nextEvent(live);
    expect(second?.event).toBe('rows');
    expect(rowIdsOf((second as StreamEvent).data, byTs)).toEqual(newestFirst(later).map((row) => row.rowId));
    expect(second?.id).not.toBe(first?.id);
    closeAll();
  });

  it('resumes from Last-Event-ID with exactly the rows written since, and from ?cursor in pages of limit', async () => {
    const live = await stream(`/v1/profiles/${profileId}/logs/stream?limit=50`);
    const first = (await nextEvent(live)) as StreamEvent;
    live.close();
    const missed = newerRows(4, 2);
    remember(missed);
    await insertRows(writer, missed);
    const expected = newestFirst(missed).map((row) => row.rowId);
    const resumed = await stream(`/v1/profiles/${profileId}/logs/stream?limit=50`, {
      ...owner.auth,
      'last-event-id': first.id as string,
    });
    const again = (await nextEvent(resumed)) as StreamEvent;
    expect(rowIdsOf(again.data, byTs)).toEqual(expected);
    // With fewer rows per event than were missed, the oldest come first and the rest follow, none twice.
    const byQuery = await stream(
      `/v1/profiles/${profileId}/logs/stream?limit=3&cursor=${encodeURIComponent(first.id as string)}`,
    );
    const oldest = rowIdsOf(((await nextEvent(byQuery)) as StreamEvent).data, byTs);
    const rest = rowIdsOf(((await nextEvent(byQuery)) as StreamEvent).data, byTs);
    expect([...rest, ...oldest]).toEqual(expected);
    closeAll();
  });

  it('refuses a fifth stream of an account with 429 too_many_streams and frees the slot on disconnect', async () => {
    const streams = [];
    for (let index = 0; index < 4; index += 1) {
      const opened = await stream(`/v1/profiles/${profileId}/logs/stream`);
      expect(opened.status).toBe(200);
      streams.push(opened);
    }
    const fifth = await stream(`/v1/profiles/${profileId}/logs/stream`);
    expect(fifth.status).toBe(429);
    expect(JSON.parse(await fifth.text())).toMatchObject({ status: 429, code: 'too_many_streams' });
    streams[0]?.close();
    const reopened = await eventually(
      async () => {
        const attempt = await stream(`/v1/profiles/${profileId}/logs/stream`);
        if (attempt.status !== 200) await attempt.text();
        return attempt.status;
      },
      (status) => status === 200,
    );
    expect(reopened).toBe(200);
    closeAll();
  });

  it('ends the stream at the next heartbeat once its API token is revoked', async () => {
    const created = await send(`${api.url}/v1/tokens`, {
      method: 'POST',
      headers: { cookie: `svc_session=${owner.cookie}` },
      body: { name: 'stream', scopes: ['logs:read'] },
    });
    expect(created.status).toBe(201);
    const token = created.json as { token: { id: string }; secret: string };
    const live = await stream(`/v1/profiles/${profileId}/logs/stream?limit=1`, {
      authorization: `Bearer ${token.secret}`,
    });
    expect((await live.next())?.event).toBe('rows');
    const revoked = await send(`${api.url}/v1/tokens/${token.token.id}`, {
      method: 'DELETE',
      headers: { cookie: `svc_session=${owner.cookie}` },
    });
    expect(revoked.status).toBe(204);
    api.clock.advance(HEARTBEAT_MS);
    const seen: StreamEvent[] = [];
    for (let event = await live.next(); event !== null; event = await live.next()) seen.push(event);
    expect(seen.map((event) => event.comment ?? event.event)).toEqual(['heartbeat']);
    closeAll();
  });

  it('goes on after a transient error: a self-hosted profile without a node sends node_offline once', async () => {
    const selfHostedId = await createProfile('self-hosted');
    const live = await stream(`/v1/profiles/${selfHostedId}/logs/stream`);
    expect(live.status).toBe(200);
    const failure = await live.next();
    expect(failure?.event).toBe('error');
    expect(JSON.parse(failure?.data ?? '{}')).toMatchObject({ status: 503, code: 'node_offline' });
    api.clock.advance(HEARTBEAT_MS);
    // Still open: the polls in between failed the same way and sent nothing more.
    expect(await live.next()).toMatchObject({ comment: 'heartbeat' });
    closeAll();
  });

  it('sends no rows for a profile whose destination is none', async () => {
    const live = await stream(`/v1/profiles/${noneId}/logs/stream`);
    expect(live.status).toBe(200);
    api.clock.advance(HEARTBEAT_MS);
    // Polls run every second before the heartbeat comes: any row they found would arrive first.
    expect(await live.next()).toMatchObject({ comment: 'heartbeat' });
    closeAll();
  });

  it('SDK: iterates the stream and resumes without gap or repeat after the server ends it at one hour', async () => {
    const sdk = createClient({ baseUrl: api.url, token: owner.token });
    const events = sdk.profiles.logs.stream(profileId, { limit: 5, reconnectDelayMs: 10 });
    const first = await events.next();
    expect(first.value).toMatchObject({ type: 'rows' });
    const latest = newestFirst([...byTs.values()].flat()).slice(0, 5);
    expect(rowIdsOf(dataOf(first.value), byTs)).toEqual(latest.map((row) => row.rowId));
    api.clock.advance(STREAM_MAX_MS);
    const later = newerRows(2, 3);
    remember(later);
    await insertRows(writer, later);
    const second = await events.next();
    expect(rowIdsOf(dataOf(second.value), byTs)).toEqual(newestFirst(later).map((row) => row.rowId));
    await events.return(undefined);
  });

  it('answers 404 for another organisation’s profile and 422 for bad filters, before any stream', async () => {
    const foreign = await stream(`/v1/profiles/${profileId}/logs/stream`, stranger.auth);
    expect(foreign.status).toBe(404);
    expect(JSON.parse(await foreign.text())).toMatchObject({ code: 'not_found' });
    const invalid = await stream(`/v1/profiles/${profileId}/logs/stream?limit=0`);
    expect(invalid.status).toBe(422);
    expect(JSON.parse(await invalid.text())).toMatchObject({ code: 'validation_failed' });
    closeAll();
  });
});
