import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RequestSeries } from './request-series.js';

/** Label values of one series; names are fixed when the metric is declared. */
type MetricLabels = Record<string, string>;

/**
 * A monotonically increasing count (requests, query cost units). Labels are always passed (`{}` for none):
 * prom-client reads a lone first argument as the value.
 */
export interface MetricCounter {
  inc(labels: MetricLabels, value?: number): void;
}

/** A value that goes up and down (queue depths, links connected); labels as for {@link MetricCounter}. */
export interface MetricGauge {
  set(labels: MetricLabels, value: number): void;
  inc(labels: MetricLabels, value?: number): void;
  dec(labels: MetricLabels, value?: number): void;
}

/** A distribution of observed values (durations in seconds, sizes). */
export interface MetricHistogram {
  observe(labels: MetricLabels, value: number): void;
}

/** How a metric is declared: a `svc_`-prefixed snake_case name, its help text, and its label names. */
export interface MetricDeclaration {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

/**
 * The metrics port of the server, free of domain types and of prom-client's: a context declares the series it
 * keeps (query cost, links connected, …) and updates them; `collect` callbacks refresh gauges at scrape time
 * (queue depths read from the database). Declaring a name twice returns the first declaration, so bindings
 * may declare what they use without coordinating.
 */
export const ServerMetrics = Symbol.for('svc.ServerMetrics');
export interface ServerMetrics {
  counter(declaration: MetricDeclaration): MetricCounter;
  gauge(declaration: MetricDeclaration & { collect?: (gauge: MetricGauge) => Promise<void> }): MetricGauge;
  histogram(declaration: MetricDeclaration & { buckets?: readonly number[] }): MetricHistogram;
  /** One answered HTTP request, by route template (never the raw path), method and status. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** The text exposition format of every series, with its Content-Type. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

/** Request durations: fine below 100 ms, where the API lives, coarse up to the 10 s node time-out. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/**
 * Process-wide series (CPU, memory, event-loop delay, GC) go in one registry per process: they describe the
 * process, and their collectors (a GC observer, an event-loop monitor) must not be started once per server
 * when a test process runs many servers.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** {@link ServerMetrics} on prom-client, with a registry of its own per server. */
export class PromServerMetrics implements ServerMetrics {
  private readonly registry = new Registry();
  /** Observed on every request, so kept outside prom-client (see {@link RequestSeries}). */
  private readonly requests = new RequestSeries(
    { count: 'svc_http_requests_total', duration: 'svc_http_request_duration_seconds' },
    {
      count: 'HTTP requests answered, by method, route template and status.',
      duration:
        'Time from receiving a request to the end of its answer, by method, route template and status.',
    },
    REQUEST_BUCKETS,
  );

  counter(declaration: MetricDeclaration): MetricCounter {
    const existing = this.registry.getSingleMetric(declaration.name);
    if (existing instanceof Counter) return existing;
    return new Counter({
      name: declaration.name,
      help: declaration.help,
      labelNames: declaration.labelNames ?? [],
      registers: [this.registry],
    });
  }

  gauge(declaration: MetricDeclaration & { collect?: (gauge: MetricGauge) => Promise<void> }): MetricGauge {
    const existing = this.registry.getSingleMetric(declaration.name);
    if (existing instanceof Gauge) return existing;
    const collect = declaration.collect;
    return new Gauge({
      name: declaration.name,
      help: declaration.help,
      labelNames: declaration.labelNames ?? [],
      registers: [this.registry],
      ...(collect === undefined
        ? {}
        : {
            async collect(this: Gauge) {
              await collect(this);
            },
          }),
    });
  }

  histogram(declaration: MetricDeclaration & { buckets?: readonly number[] }): MetricHistogram {
    const existing = this.registry.getSingleMetric(declaration.name);
    if (existing instanceof Histogram) return existing;
    return new Histogram({
      name: declaration.name,
      help: declaration.help,
      labelNames: declaration.labelNames ?? [],
      ...(declaration.buckets === undefined ? {} : { buckets: [...declaration.buckets] }),
      registers: [this.registry],
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return {
      contentType: this.registry.contentType,
      body: `${this.requests.render()}\n${own}\n${process}`,
    };
  }
}
