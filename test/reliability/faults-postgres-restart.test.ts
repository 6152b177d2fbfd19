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
 * Issue 10, faults: the PostgreSQL server crashes (`pg_ctl stop -m immediate`) and comes back while clients
 * keep reading and writing. During the outage every request is answered (a bounded wait, no hang) with a 503
 * 503 problem (code internal), never a 500; the API server recovers on its own; every write it acknowledged
 * before or after is stored.
 */
const skipReason = privatePostgresUnavailable();
if (skipReason !== undefined) console.warn(`PostgreSQL restart fault test skipped: ${skipReason}`);

/** A request that has not answered by then counts as a hang and fails the test. */
const REQUEST_BOUND_MS = 10_000;
const WORKERS = 4;

interface Outcome {
  phase: 'before' | 'outage' | 'after';
  answer: RawAnswer;
}

describe.skipIf(skipReason !== undefined)('PostgreSQL server restarted mid-load', () => {
  let postgres: PrivatePostgres;
  let api: ApiHarness;
  let account: TestAccount;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    // The harness keeps its data dir; DATABASE_URL points the API server at the private cluster.
    api = await startApi('pglite', { DATABASE_URL: postgres.url, SVC_RATE_LIMIT_PER_MINUTE: '1000000' });
    account = await createAccount(api);
  });

  afterAll(async () => {
    try {
      await api?.close();
    } finally {
      await postgres?.destroy();
    }
  });

  it('answers 503 problems during the outage, recovers by itself and keeps every acknowledged write', async () => {
    let phase: Outcome['phase'] = 'before';
    let stopping = false;
    const outcomes: Outcome[] = [];
    const acknowledged: string[] = [];
    let sequence = 0;
    const worker = async (index: number) => {
      while (!stopping) {
        sequence += 1;
        const during = phase;
        const answer = await send(`${api.url}/v1/profiles`, {
          method: 'POST',
          headers: account.auth,
          body: { name: `load ${index}-${sequence}` },
          signal: AbortSignal.timeout(REQUEST_BOUND_MS),
        });
        outcomes.push({ phase: during, answer });
        if (answer.status === 201) acknowledged.push((answer.json as { id: string }).id);
        const read = await send(`${api.url}/v1/profiles?limit=5`, {
          headers: account.auth,
          signal: AbortSignal.timeout(REQUEST_BOUND_MS),
        });
        outcomes.push({ phase: during, answer: read });
      }
    };
    const running = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await settle(1_000);
    phase = 'outage';
    await postgres.crash();
    const outageStarted = outcomes.length;
    await settle(2_000);
    const readiness = await send(`${api.url}/readyz`);
    await postgres.start();
    phase = 'after';
    // Recovery: the same server, never restarted, acknowledges writes again.
    const recoveredBy = Date.now() + 20_000;
    let recovered = false;
    while (!recovered && Date.now() < recoveredBy) {
      await settle(200);
      recovered = outcomes.some((outcome) => outcome.phase === 'after' && outcome.answer.status === 201);
    }
    await settle(1_000);
    stopping = true;
    await running;

    const failed = outcomes.filter((outcome) => outcome.answer.status >= 300);
    const duringOutage = outcomes.slice(outageStarted).filter((outcome) => outcome.phase === 'outage');
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.some((outcome) => outcome.answer.status === 503)).toBe(true);
    for (const { answer } of failed) {
      expect(answer.status).toBe(503);
      expect(problemOf(answer)).toMatchObject({ status: 503, code: 'internal' });
      expect(answer.headers['retry-after']).toBe('1');
    }
    expect(readiness.status).toBe(503);
    expect(recovered).toBe(true);
    expect((await send(`${api.url}/readyz`)).status).toBe(200);

    for (const id of acknowledged) {
      const stored = await send(`${api.url}/v1/profiles/${id}`, { headers: account.auth });
      expect(stored.status, `acknowledged profile ${id}`).toBe(200);
    }
    const count = (phaseName: Outcome['phase'], status: number) =>
      outcomes.filter((outcome) => outcome.phase === phaseName && outcome.answer.status === status).length;
    console.info(
      `PostgreSQL restart: ${outcomes.length} requests, ${acknowledged.length} writes acknowledged and all stored; ` +
        `outage: ${count('outage', 503)} × 503, ${count('outage', 200) + count('outage', 201)} × 2xx; ` +
        `after: ${count('after', 503)} × 503 before recovery`,
    );
  }, 60_000);
});
