import { createTestApp, type TestApp } from '@svc/http-server';
import { createClient, OPERATIONS } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationRecorder } from '../support/operation-recorder.js';
import { operationsNotServed, requestSeries } from '../support/served-operations.js';

/** The recording proxy and the metrics reading that sdk-every-operation.e2e.test.ts relies on. */
describe(OperationRecorder.name, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('records resolved calls, refusals by code, paginator steps and withResponse calls', async () => {
    const recorder = new OperationRecorder();
    const client = recorder.wrap(createClient({ baseUrl: app.url }));
    expect((await client.meta.get()).api_version).toMatch(/^\d/);
    expect((await client.meta.pops()).pops.length).toBeGreaterThan(0);
    expect((await client.catalogue.parentalServices({ limit: 5 }).toArray()).length).toBeGreaterThan(5);
    await expect(client.profiles.get('zzzzzz').withResponse()).rejects.toMatchObject({
      code: 'unauthenticated',
    });

    expect(recorder.outcomesOf('meta.get')).toEqual({ resolved: 1, refused: [] });
    expect(recorder.outcomesOf('meta.pops').resolved).toBe(1);
    expect(recorder.outcomesOf('catalogue.parentalServices').resolved).toBeGreaterThan(1);
    expect(recorder.outcomesOf('profiles.get')).toEqual({ resolved: 0, refused: ['unauthenticated'] });
    expect(recorder.outcomesOf('profiles.list')).toEqual({ resolved: 0, refused: [] });
  });

  it('lists every operation not exercised, and accepts a refusal only with its documented code', async () => {
    const recorder = new OperationRecorder();
    const client = recorder.wrap(createClient({ baseUrl: app.url }));
    await client.meta.get();
    await client.profiles.get('zzzzzz').catch(() => undefined);
    const missing = recorder.missingOperations({});
    expect(missing).toHaveLength(Object.keys(OPERATIONS).length - 1);
    expect(missing).toContain('getProfile → profiles.get (resolved 0, refused [unauthenticated])');
    expect(missing.some((entry) => entry.startsWith('getMeta '))).toBe(false);

    const reason = 'a test of the recorder';
    expect(recorder.missingOperations({ getProfile: { code: 'unauthenticated', reason } })).not.toContain(
      'getProfile → profiles.get (resolved 0, refused [unauthenticated])',
    );
    expect(recorder.missingOperations({ getProfile: { code: 'not_found', reason } })).toContain(
      'getProfile → profiles.get (resolved 0, refused [unauthenticated])',
    );
  });

  it('finds an operation served only with 5xx or never, whatever its parameters are named', () => {
    const routes = new Map([
      ['getProfile', { method: 'GET', template: '/v1/profiles/{id}' }],
      ['getMeta', { method: 'GET', template: '/v1/meta' }],
      ['listPops', { method: 'GET', template: '/v1/pops' }],
    ]);
    const series = requestSeries(
      [
        '# TYPE svc_http_requests_total counter',
        'svc_http_requests_total{method="GET",route="/v1/profiles/{profileId}",status="404"} 2',
        'svc_http_requests_total{method="GET",route="/v1/meta",status="503"} 1',
      ].join('\n'),
    );
    expect(operationsNotServed(['getProfile', 'getMeta', 'listPops', 'nothing'], routes, series)).toEqual([
      'getMeta (GET /v1/meta: 503×1)',
      'listPops (GET /v1/pops: never)',
      'nothing (not in the OpenAPI document)',
    ]);
  });
});
