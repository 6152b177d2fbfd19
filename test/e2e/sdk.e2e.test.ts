import { API_VERSION } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { ApiError, createClient, isApiError, NetworkError } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRoutes } from '../support/probe-routes.js';

describe('SDK against the real server', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: [probeRoutes] });
  });
  afterAll(async () => app.close());

  it('reads the public endpoints with their domain types', async () => {
    const client = createClient({ baseUrl: app.url });
    expect((await client.meta.get()).api_version).toBe(API_VERSION);
    expect((await client.meta.pops()).pops.length).toBeGreaterThan(0);
    expect(await client.meta.ip()).toEqual({ ip: '127.0.0.1', version: 4 });
    expect((await client.meta.capabilities()).features).toHaveProperty('list_reports');
    expect(await client.meta.openApiYaml()).toContain('openapi: 3.1.0');
  });

  it('throws ApiError carrying code, status, request id and field errors', async () => {
    const client = createClient({ baseUrl: app.url });
    const failure = await client
      .request({ method: 'POST', path: '/v1/probe/widgets', body: { name: '' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(isApiError(failure, 'validation_failed')).toBe(true);
    if (!(failure instanceof ApiError)) return;
    expect(failure.status).toBe(422);
    expect(failure.isInvalidRequest).toBe(true);
    expect(failure.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(failure.fieldErrors).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it('sends an Idempotency-Key on creating POSTs and reuses a given one', async () => {
    const client = createClient({ baseUrl: app.url });
    const created = await client.request<{ idempotency_key: string }>({
      method: 'POST',
      path: '/v1/probe/widgets',
      body: { name: 'w' },
      idempotent: true,
    });
    expect(created.data.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const first = await client.request({
      method: 'POST',
      path: '/v1/probe/widgets',
      body: { name: 'w' },
      idempotencyKey: 'sdk-key-1',
    });
    const again = await client.request({
      method: 'POST',
      path: '/v1/probe/widgets',
      body: { name: 'w' },
      idempotencyKey: 'sdk-key-1',
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
  });

  it('retries 503 answers honouring Retry-After on safe calls, and not without retries', async () => {
    const patient = createClient({ baseUrl: app.url, maxRetries: 2, maxRetryDelaySeconds: 0.05 });
    expect(
      (await patient.request<{ calls: number }>({ method: 'GET', path: '/v1/probe/flaky' })).data.calls,
    ).toBe(3);
    const impatient = createClient({ baseUrl: app.url, maxRetries: 0 });
    const failure = await impatient
      .request({ method: 'GET', path: '/v1/probe/flaky' })
      .catch((error: unknown) => error);
    expect(isApiError(failure, 'relay_unavailable')).toBe(true);
    expect((failure as ApiError).retryAfter).toBe(1);
  });

  it('pages through a list with an async iterator', async () => {
    const client = createClient({ baseUrl: app.url });
    const ids: number[] = [];
    for await (const item of client.list<{ id: number }>('/v1/probe/items', 'items', { limit: 40 }))
      ids.push(item.id);
    expect(ids).toHaveLength(120);
    expect(await client.list('/v1/probe/items', 'items').toArray(70)).toHaveLength(70);
  });

  it('reports a refused connection as NetworkError, not ApiError', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    await expect(client.meta.get()).rejects.toBeInstanceOf(NetworkError);
  });
});
