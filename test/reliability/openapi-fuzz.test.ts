import type { PostgresDatabase } from '@svc/adapters';
import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { PostgresToken } from '@svc/http-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { send } from '../support/http.js';
import {
  type Answer,
  BATCH,
  CREDENTIAL_ENDING,
  contractBreach,
  deliver,
  type OpenApiDocument,
  REQUESTS,
  SEED,
  STATE_TABLES,
} from './fuzz/fuzz-contract.js';
import {
  type FuzzClass,
  type FuzzOperation,
  type FuzzRequest,
  type KnownIds,
  requestArbitrary,
} from './fuzz/fuzz-requests.js';

/**
 * Bad input (issue 10; spec 4.1, 7): requests generated from the served OpenAPI document for every operation,
 * valid, near-valid and hostile, seeded and repeatable. No answer is a 500 (or an undocumented 5xx), every
 * error is a problem document whose status the operation documents (or any route can answer), and a rejected
 * write leaves the account's stored state as it was.
 */
describe('OpenAPI-driven fuzzing of every operation (spec 4.1, 7)', () => {
  let api: ApiHarness;
  let document: OpenApiDocument;
  let cookie: Record<string, string>;
  let token: Record<string, string>;
  const known: KnownIds = {};

  beforeAll(async () => {
    api = await startApi('pglite', { SVC_RATE_LIMIT_PER_MINUTE: '1000000' });
    document = parse((await send(`${api.url}/v1/openapi.yaml`)).text) as OpenApiDocument;
    const account = await createAccount(api);
    await setOperatorFlag(await api.container.getAsync<IdentityStore>(IdentityStore), account.email, true);
    cookie = { cookie: `svc_session=${account.cookie}` };
    const scopes = (document.components.schemas.Scope?.enum ?? []) as string[];
    const created = await send(`${api.url}/v1/tokens`, {
      method: 'POST',
      headers: cookie,
      body: { name: 'fuzz', scopes },
    });
    token = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
    const spare = await send(`${api.url}/v1/tokens`, {
      method: 'POST',
      headers: cookie,
      body: { name: 'spare', scopes },
    });
    known.id = [];
    for (const name of ['one', 'two', 'three']) {
      const profile = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: token,
        body: { name },
      });
      known.id.push((profile.json as { id: string }).id);
    }
    const profileId = known.id[0] as string;
    const linked = await send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
      method: 'POST',
      headers: token,
      body: { ip: '203.0.113.77' },
    });
    const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: token,
      body: { name: 'n' },
    });
    const block = await send(`${api.url}/v1/admin/operator-blocks`, {
      method: 'POST',
      headers: token,
      body: { pattern: 'fuzz-seed.example', reason_code: 'abuse' },
    });
    known.id.push((spare.json as { id: string }).id, (block.json as { block: { id: string } }).block.id);
    known.linkId = [(linked.json as { id: string }).id];
    known.nodeId = [(node.json as { id: string }).id];
    known.deviceId = ['laptop', '~000000000000000000000000'];
    known.token = ['0'.repeat(40)];
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  /**
   * What a rejected write must not change: a digest of every stored resource (profiles and their rules, lists,
   * linked IPs, devices and nodes, reports, tokens, operator and source blocks, audit, exports, second
   * factors, preferences). Read in one query rather than through a handful of GETs per write; columns that
   * move with every authenticated request (last use) are left out, as are the bookkeeping tables of requests
   * themselves (sessions, idempotency keys, mail queue, outbox of publications already counted in profiles).
   */
  const snapshot = async (): Promise<string> => {
    const { pool } = await api.container.getAsync<PostgresDatabase>(PostgresToken);
    const tables = Object.entries(STATE_TABLES);
    const digests = tables.map(
      ([table, row]) =>
        `(SELECT md5(coalesce(string_agg((${row})::text, ',' ORDER BY (${row})::text), '')) FROM ${table} t)`,
    );
    const answer = await pool.query<{ digest: string }>(
      `SELECT concat_ws(':', ${digests.join(', ')}) AS digest`,
    );
    const parts = (answer.rows[0]?.digest ?? '').split(':');
    return tables.map(([table], index) => `${table}=${parts[index]}`).join(' ');
  };

  it(
    `answers ${REQUESTS} generated requests within the contract`,
    async () => {
      const components = document.components.schemas;
      const operations: FuzzOperation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          method,
          path,
          operationId: operation.operationId,
          documented: new Set(Object.keys(operation.responses).map(Number)),
          security: operation.security,
          parameters: operation.parameters ?? [],
          body: operation.requestBody?.content['application/json']?.schema,
        })),
      );
      const credentialsOf = (operation: FuzzOperation): Record<string, string> => {
        if (CREDENTIAL_ENDING.has(`${operation.method} ${operation.path}`)) return {};
        const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
        if (schemes.includes('apiToken')) return token;
        if (schemes.includes('session')) return cookie;
        if (schemes.includes('nodeToken')) return { authorization: `Bearer svcnode_${'0'.repeat(40)}` };
        return {};
      };
      const arbitrary = fc.oneof(
        ...operations.map((operation) =>
          requestArbitrary(operation, components, known, credentialsOf(operation)),
        ),
      );
      /**
       * Generated a hundred at a time, each batch from its own seed: generating all at once blocks this process
       * (which also runs the server) for seconds, long enough for idle keep-alive connections to be reset.
       */
      function* generated(): Generator<FuzzRequest> {
        for (let batch = 0; batch * BATCH < REQUESTS; batch += 1) {
          yield* fc.sample(arbitrary, {
            seed: SEED + batch,
            numRuns: Math.min(BATCH, REQUESTS - batch * BATCH),
          });
        }
      }
      const byClass = new Map<FuzzClass, number>();
      const byStatus = new Map<number, number>();
      const reached = new Set<string>();
      const breaches = new Map<string, string>();
      let baseline = await snapshot();
      let tried = 0;
      for (const fuzz of generated()) {
        tried += 1;
        byClass.set(fuzz.fuzzClass, (byClass.get(fuzz.fuzzClass) ?? 0) + 1);
        reached.add(fuzz.operation.operationId);
        const where = `${fuzz.operation.method.toUpperCase()} ${fuzz.operation.path} [${fuzz.fuzzClass}]`;
        let answer: Answer;
        try {
          answer = await deliver(api.url, fuzz);
        } catch (error) {
          breaches.set(
            `${where} no answer`,
            `${fuzz.path}: ${error instanceof Error ? error.message : 'failed'}`,
          );
          continue;
        }
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
        const breach = contractBreach(fuzz, answer);
        if (breach !== undefined && !breaches.has(`${where} ${breach}`)) {
          breaches.set(
            `${where} ${breach}`,
            `${fuzz.path} ${fuzz.body?.subarray(0, 200).toString() ?? ''} → ${answer.text.slice(0, 300)}`,
          );
        }
        if (fuzz.operation.method === 'get') continue;
        const after = await snapshot();
        if (answer.status >= 400 && after !== baseline) {
          const before = new Set(baseline.split(' '));
          const changed = after
            .split(' ')
            .filter((entry) => !before.has(entry))
            .map((entry) => entry.split('=')[0]);
          breaches.set(
            `${where} changed ${changed.join(', ')} with a ${answer.status}`,
            `${fuzz.path} ${answer.text.slice(0, 200)}`,
          );
        }
        baseline = after;
      }
      console.log(
        `fuzzed ${tried} requests (seed ${SEED}) over ${reached.size} of ${operations.length} operations`,
      );
      console.table(
        Object.fromEntries(
          [...byClass]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, count]) => [name, { requests: count }]),
        ),
      );
      console.table(
        Object.fromEntries(
          [...byStatus].sort(([a], [b]) => a - b).map(([status, count]) => [status, { answers: count }]),
        ),
      );
      expect(Object.fromEntries(breaches)).toEqual({});
      expect(reached.size).toBe(operations.length);
      // A long run (SVC_FUZZ_REQUESTS=100000) gets the time its count needs on a slow machine.
    },
    Math.max(900_000, REQUESTS * 50),
  );
});
