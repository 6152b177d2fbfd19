import {
  type Attributes,
  type Context,
  INVALID_SPAN_CONTEXT,
  type Span,
  type SpanKind,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
} from '@opentelemetry/api';

/** A span that keeps what svc tells it, standing in for an SDK's. */
export class RecordedSpan implements Span {
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

/** Every span started through {@link recordingTracer}, oldest first. */
export const spans: RecordedSpan[] = [];

function startSpan(name: string, options: SpanOptions = {}): RecordedSpan {
  const span = new RecordedSpan(name, options.kind, options.attributes);
  spans.push(span);
  return span;
}

/** A tracer to register with `trace.setGlobalTracerProvider` in tests; `startActiveSpan` takes its callback last, as the API's overloads do. */
export const recordingTracer: Tracer = {
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
