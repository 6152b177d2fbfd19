import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenStream, openEventStream, type StreamEvent } from '../e2e/query-log/event-stream-reader.js';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { send } from '../support/http.js';
import {
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../support/private-engines.js';

const HEARTBEAT_MS = 15_000;
const RECHECK_GRACE_MS = 60_000;

/**
 * Issue 35, live streams through a database outage: the heartbeat's re-check of the credential (spec 6.1)
 * that cannot be made, PostgreSQL crashed for real, keeps the stream open and is tried again; a revoked
 * credential still ends it at the next heartbeat, and an outage longer than a minute ends it with a 503
 * `error` event.
 */
const skipReason = privatePostgresUnavailable();
if (skipReason !== undefined) console.warn(`stream re-check fault test skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('live log stream while PostgreSQL is down', () => {
  let postgres: PrivatePostgres;
  let api: ApiHarness;
  let account: TestAccount;
  let profileId: string;
  const open: OpenStream[] = [];

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    api = await startApi('pglite', { DATABASE_URL: postgres.url });
    account = await createAccount(api);
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: account.auth,
      body: { settings: { log_destination: 'cloud' } },
    });
    profileId = (created.json as { id: string }).id;
  }, 60_000);

  afterAll(async () => {
    for (const stream of open) stream.close();
    try {
      await api?.close();
    } finally {
      await postgres?.destroy();
    }
  });

  const openStream = async (cookie: string): Promise<OpenStream> => {
    const stream = await openEventStream(`${api.url}/v1/profiles/${profileId}/logs/stream`, {
      cookie: `svc_session=${cookie}`,
    });
    open.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  };

  /** Events up to and including the next heartbeat comment, or up to the end of the stream (null last). */
  async function untilHeartbeat(stream: OpenStream): Promise<(StreamEvent | null)[]> {
    const seen: (StreamEvent | null)[] = [];
    for (;;) {
      const event = await stream.next();
      seen.push(event);
      if (event === null || event.comment === 'heartbeat') return seen;
    }
  }

  const signIn = async (): Promise<string> => {
    const login = await send(`${api.url}/v1/auth/login`, {
      method: 'POST',
      body: { email: account.email, password: 'correct horse battery' },
    });
    const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1];
    if (cookie === undefined) throw new Error(`login answered ${login.status}`);
    return cookie;
  };

  it('stays open through an outage at the heartbeat, then ends at the next heartbeat once the session is signed out', async () => {
    const cookie = await signIn();
    const stream = await openStream(cookie);

    await postgres.crash();
    api.clock.advance(HEARTBEAT_MS);
    const duringOutage = await untilHeartbeat(stream);
    // The next heartbeat comes only if the stream survived this one's failed re-check.
    api.clock.advance(HEARTBEAT_MS);
    duringOutage.push(...(await untilHeartbeat(stream)));
    expect(duringOutage).not.toContain(null);
    for (const event of duringOutage.filter((seen) => seen?.event === 'error'))
      expect(JSON.parse(event?.data ?? '{}')).toMatchObject({ status: 503 });

    await postgres.start();
    api.clock.advance(HEARTBEAT_MS);
    expect(await untilHeartbeat(stream)).not.toContain(null);

    const logout = await send(`${api.url}/v1/auth/logout`, {
      method: 'POST',
      headers: { cookie: `svc_session=${cookie}` },
    });
    expect(logout.status).toBeLessThan(300);
    api.clock.advance(HEARTBEAT_MS);
    const afterRevocation = await untilHeartbeat(stream);
    expect(afterRevocation.at(-1)?.comment).toBe('heartbeat');
    expect(await stream.next()).toBeNull();
  }, 90_000);

  it('ends with a 503 error event once the re-check has failed for a minute', async () => {
    const stream = await openStream(await signIn());
    await postgres.crash();
    try {
      api.clock.advance(HEARTBEAT_MS);
      expect(await untilHeartbeat(stream)).not.toContain(null);
      api.clock.advance(RECHECK_GRACE_MS);
      const events: (StreamEvent | null)[] = [];
      for (let event = await stream.next(); event !== null; event = await stream.next()) events.push(event);
      const last = events.at(-1);
      expect(last?.event).toBe('error');
      expect(JSON.parse(last?.data ?? '{}')).toMatchObject({ status: 503, code: 'internal', retry_after: 1 });
    } finally {
      await postgres.start();
    }
  }, 90_000);
});
