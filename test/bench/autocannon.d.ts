/** The part of autocannon's programmatic API the mix benchmark uses (the package ships no types). */
declare module 'autocannon' {
  /** One request of the sequence each connection cycles through. */
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Adjusts the request just before it is sent; `context` lives until the sequence restarts. */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    requests?: AutocannonRequest[];
  }

  export interface AutocannonHistogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface AutocannonResult {
    requests: AutocannonHistogram;
    latency: AutocannonHistogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  }

  export default function autocannon(options: AutocannonOptions): PromiseLike<AutocannonResult>;
}
