/** One series of answered requests: a count per duration bucket (not cumulative), their sum and total. */
interface Series {
  labels: string;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** Prometheus label values escape backslash, double quote and line feed. */
function labelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === '\n' ? '\\n' : `\\${character}`));
}

/**
 * The request count and duration histogram, kept by hand rather than with prom-client's Counter and
 * Histogram: those hash the label set on every observation, while here a request costs one map lookup on a
 * string key and a bucket scan. The text is rendered in the same exposition format, only when scraped.
 */
export class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(
    private readonly names: { count: string; duration: string },
    private readonly help: { count: string; duration: string },
    /** Upper bounds in seconds, ascending. */
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = {
        labels: `method="${labelValue(method)}",route="${labelValue(route)}",status="${status}"`,
        buckets: new Float64Array(this.bounds.length),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    for (let index = 0; index < this.bounds.length; index += 1) {
      if (seconds <= (this.bounds[index] ?? Number.POSITIVE_INFINITY)) {
        series.buckets[index] = (series.buckets[index] ?? 0) + 1;
        break;
      }
    }
  }

  /** The two metrics in the Prometheus text format (version 0.0.4). */
  render(): string {
    const counts = [`# HELP ${this.names.count} ${this.help.count}`, `# TYPE ${this.names.count} counter`];
    const durations = [
      `# HELP ${this.names.duration} ${this.help.duration}`,
      `# TYPE ${this.names.duration} histogram`,
    ];
    for (const series of this.series.values()) {
      counts.push(`${this.names.count}{${series.labels}} ${series.count}`);
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.buckets[index] ?? 0;
        durations.push(`${this.names.duration}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
      });
      durations.push(`${this.names.duration}_bucket{le="+Inf",${series.labels}} ${series.count}`);
      durations.push(`${this.names.duration}_sum{${series.labels}} ${series.sum}`);
      durations.push(`${this.names.duration}_count{${series.labels}} ${series.count}`);
    }
    return `${counts.join('\n')}\n\n${durations.join('\n')}\n`;
  }
}
