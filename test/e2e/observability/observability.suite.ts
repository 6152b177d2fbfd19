import { LazyColumnarStore } from '@svc/adapters';
import { ColumnarStore } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

const METRICS_TOKEN = 'metrics-token-for-the-e2e-suite';

/** The value of the series `name{labels}` in a text exposition, or undefined when absent. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`) && line.split(' ')[0] !== name) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/**
 * Liveness, readiness and Prometheus metrics outside /v1 (issue 10): answered without a credential, never
 * rate limited, absent from the OpenAPI document; readiness follows PostgreSQL without opening the lazy
 * columnar store; request series are labelled by route template and status, never by raw path.
 */
export function runObservabilitySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`operational endpoints on ${storage}`, () => {
    let api: ApiHarness;
    let owner: TestAccount;

    beforeAll(async () => {
      api = await startApi(storage, { SVC_RATE_LIMIT_PER_MINUTE: '5', SVC_METRICS_TOKEN: METRICS_TOKEN });
      owner = await createAccount(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const metrics = async (): Promise<string> => {
      const answer = await send(`${api.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return answer.text;
    };

    it('GET /livez answers 200 without a credential, with the common headers', async () => {
      const answer = await send(`${api.url}/livez`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ status: 'live' });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).toBe('no-store');
    });

    it('GET /readyz is ready with PostgreSQL answering, and leaves an unopened columnar store unopened', async () => {
      const columnar = api.container.isBound(ColumnarStore)
        ? await api.container.getAsync<ColumnarStore>(ColumnarStore)
        : undefined;
      const lazy = columnar instanceof LazyColumnarStore ? columnar : undefined;
      const openBefore = lazy?.isOpen;
      const answer = await send(`${api.url}/readyz`);
      expect(answer.status).toBe(200);
      const report = answer.json as { status: string; checks: Record<string, string> };
      expect(report.status).toBe('ready');
      expect(report.checks.postgres).toBe(storage === 'memory' ? 'in_process' : 'ok');
      expect(report.checks.bus).toBe('in_process');
      if (lazy !== undefined) {
        expect(lazy.isOpen).toBe(openBefore);
        if (openBefore === false) expect(report.checks.columnar).toBe('unopened');
      }
    });

    it('does not list the operational paths in the /v1 OpenAPI document', async () => {
      const answer = await send(`${api.url}/v1/openapi.yaml`);
      expect(answer.status).toBe(200);
      for (const path of ['/livez', '/readyz', '/metrics']) expect(answer.text).not.toContain(`${path}:`);
    });

    it('is never rate limited, while a public /v1 route is (spec 4.1.8 applies to /v1 only)', async () => {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        expect((await send(`${api.url}/livez`)).status).toBe(200);
        expect((await send(`${api.url}/readyz`)).status).toBe(200);
        expect((await metrics()).length).toBeGreaterThan(0);
      }
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1)
        statuses.push((await send(`${api.url}/v1/auth/signup-mode`)).status);
      expect(statuses).toContain(429);
    });

    it('GET /metrics demands SVC_METRICS_TOKEN when set: 401 problem without it or with another', async () => {
      const without = await send(`${api.url}/metrics`);
      expect(without.status).toBe(401);
      expect(problemOf(without).code).toBe('unauthenticated');
      expect(without.headers['www-authenticate']).toBe('Bearer');
      const wrong = await send(`${api.url}/metrics`, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(wrong.status).toBe(401);
    });

    it('counts requests by route template and status, never by raw path', async () => {
      const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;
      const before = await metrics();
      const read = await send(`${api.url}/v1/profiles/${id}`, { headers: owner.auth });
      expect(read.status).toBe(200);
      const missing = await send(`${api.url}/v1/profiles/zzzzzz`, {
        headers: owner.auth,
      });
      expect(missing.status).toBe(404);
      const nowhere = await send(`${api.url}/v1/no-such-route/${id}`, { headers: owner.auth });
      expect(nowhere.status).toBe(404);
      const after = await metrics();

      const route = '/v1/profiles/{id}';
      const count = (text: string, status: string, path = route) =>
        sample(text, 'svc_http_requests_total', { method: 'GET', route: path, status }) ?? 0;
      expect(count(after, '200') - count(before, '200')).toBe(1);
      expect(count(after, '404') - count(before, '404')).toBe(1);
      expect(count(after, '404', 'unmatched') - count(before, '404', 'unmatched')).toBe(1);
      expect(
        sample(after, 'svc_http_request_duration_seconds_count', { method: 'GET', route, status: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sample(after, 'svc_http_requests_total', { method: 'POST', route: '/v1/profiles', status: '201' }),
      ).toBeGreaterThanOrEqual(1);
      const labelled = after.split('\n').filter((line) => line.includes('route="'));
      expect(labelled.filter((line) => line.includes(id) || line.includes('zzzzzz'))).toEqual([]);
      expect(after).not.toContain(owner.token);
    });

    it('exposes process series, and queue depths where the queues live in PostgreSQL', async () => {
      const text = await metrics();
      expect(text).toContain('process_resident_memory_bytes');
      if (storage === 'memory') return;
      expect(sample(text, 'svc_outbox_pending_messages', {})).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'svc_outbox_lag_seconds', {})).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'svc_mail_queue_messages', { state: 'pending' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'svc_mail_queue_messages', { state: 'given_up' })).toBe(0);
    });
  });
}
