import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { API_VERSION } from '@svc/domain';

/**
 * OpenTelemetry hooks. Only the API is a dependency: until an operator registers an SDK (for example with
 * `node --import ./otel-setup.mjs`, see docs/operations.md), every span here is a non-recording no-op, and
 * nothing is exported. With an SDK, requests become server spans named by route
 * template, and work done while handling them (storage calls wrapped with {@link traced}, and whatever the
 * SDK's own instrumentations see: pg, http) nests under them.
 */
const tracer = () => trace.getTracer('svc', API_VERSION);

/**
 * A request's server span, continuing the caller's trace when the registered propagator finds one. Without an
 * SDK the span has no valid context, and no context is made for it (one allocation less per request).
 */
export function startRequestSpan(
  method: string,
  headers: IncomingHttpHeaders,
): { span: Span; context: Context | undefined } {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
    parent,
  );
  return { span, context: isSpanContextValid(span.spanContext()) ? trace.setSpan(parent, span) : undefined };
}

/** Names the span after the route template once routing decided it, records the outcome, and ends it. */
export function endRequestSpan(
  span: Span,
  facts: { method: string; route: string; status: number; requestId: string | undefined },
): void {
  if (!span.isRecording()) {
    span.end();
    return;
  }
  span.updateName(`${facts.method} ${facts.route}`);
  span.setAttributes({
    'http.route': facts.route,
    'http.response.status_code': facts.status,
    ...(facts.requestId === undefined ? {} : { 'svc.request_id': facts.requestId }),
  });
  if (facts.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Runs `work` with `spanContext` active, so spans started inside it nest under the request. */
export function runInContext<T>(spanContext: Context | undefined, work: () => T): T {
  return spanContext === undefined ? work() : context.with(spanContext, work);
}

/**
 * Wraps a storage or remote call in a client span (`db.system` and the like as attributes): the hook for
 * contexts that query ClickHouse, relay to nodes or talk to the bus.
 */
export async function traced<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      if (error instanceof Error) span.recordException(error);
      throw error;
    } finally {
      span.end();
    }
  });
}
