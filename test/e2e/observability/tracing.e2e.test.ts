import { trace } from '@opentelemetry/api';
import { createTestApp, type TestApp, traced } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingTracer, spans } from '../../support/recording-tracer.js';

/**
 * OpenTelemetry hooks (issue 10): with an SDK registered, every API request is a server span named by its
 * route template carrying the request id, and `traced` wraps storage calls in client spans.
 */
describe('OpenTelemetry hooks with a registered tracer', () => {
  let app: TestApp;
  beforeAll(async () => {
    trace.setGlobalTracerProvider({ getTracer: () => recordingTracer });
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
    trace.disable();
  });

  it('ends one server span per request, named by route template, with status and request id', async () => {
    const answer = await fetch(`${app.url}/v1/meta`);
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    const requestId = answer.headers.get('x-request-id');
    await expect
      .poll(() => spans.find((span) => span.attributes['svc.request_id'] === requestId)?.ended)
      .toBe(true);
    const span = spans.find((candidate) => candidate.attributes['svc.request_id'] === requestId);
    expect(span?.name).toBe('GET /v1/meta');
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/v1/meta',
      'http.response.status_code': 200,
    });
  });

  it('wraps a storage call in a client span, marked as an error when the call fails', async () => {
    expect(await traced('clickhouse query', { 'db.system.name': 'clickhouse' }, async () => 42)).toBe(42);
    await expect(
      traced('clickhouse query', { 'db.system.name': 'clickhouse' }, async () => {
        throw new Error('store unavailable');
      }),
    ).rejects.toThrow('store unavailable');
    const calls = spans.filter((span) => span.name === 'clickhouse query');
    expect(calls.map((span) => [span.ended, span.status?.code ?? 0])).toEqual([
      [true, 0],
      [true, 2],
    ]);
  });
});
