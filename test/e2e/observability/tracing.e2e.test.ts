import {
  type Attributes,
  type Context,
  INVALID_SPAN_CONTEXT,
  type Span,
  type SpanKind,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { createTestApp, type TestApp, traced } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A span that keeps what svc tells it, standing in for an SDK's. */
class RecordedSpan implements Span {
  attributes: Attributes = {};
  status: SpanStatus | undefined;
  ended = false;
  constructor(
    public name: string,
    readonly kind: SpanKind | undefined,
    attributes: Attributes | undefined,
  ) {
    Object.assign(this.attributes, attributes);
  }
  spanContext() {
    return INVALID_SPAN_CONTEXT;
  }
  setAttribute(key: string, value: Attributes[string]): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(): void {}
}

const spans: RecordedSpan[] = [];

function startSpan(name: string, options: SpanOptions = {}): RecordedSpan {
  const span = new RecordedSpan(name, options.kind, options.attributes);
  spans.push(span);
  return span;
}

/** The registered tracer; `startActiveSpan` takes its callback last, as the API's overloads do. */
const tracer: Tracer = {
  startSpan: (name: string, options?: SpanOptions, _context?: Context) => startSpan(name, options),
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const work = rest[rest.length - 1];
    const options = rest.length > 1 ? rest[0] : undefined;
    if (typeof work !== 'function' || typeof options === 'function') throw new Error('no callback');
    return work(startSpan(name, options)) as ReturnType<F>;
  },
};

/**
 * OpenTelemetry hooks (issue 10): with an SDK registered, every API request is a server span named by its
 * route template carrying the request id, and `traced` wraps storage calls in client spans.
 */
describe('OpenTelemetry hooks with a registered tracer', () => {
  let app: TestApp;
  beforeAll(async () => {
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
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
