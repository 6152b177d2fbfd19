import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import type { Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const httpVariables = {
  HOST: z.string().min(1).default('127.0.0.1').register(settingDocs, {
    flag: '--host',
    description: 'listen address',
  }),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080).register(settingDocs, {
    flag: '--port',
    description: 'listen port; `0` picks a free one (the printed line tells which)',
  }),
  SVC_BASE_URL: z.url().optional().register(settingDocs, {
    defaultText: '`http://HOST:PORT`',
    description: '`{base_url}` of the spec (links in mail, DDNS update URLs, problem types)',
  }),
  SVC_TRUST_PROXY: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'unset (no proxy trusted)',
    description:
      "express `trust proxy`: the load balancers' addresses or CIDRs, comma-separated; `true` or hop counts in development only",
  }),
  SVC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300).register(settingDocs, {
    description: 'requests a minute per client IP on unauthenticated routes (429 `rate_limited` beyond)',
  }),
  SVC_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10_485_760)
    .default(1_048_576)
    .register(settingDocs, {
      description: 'largest JSON body (400 `body_too_large` beyond)',
    }),
  SVC_PROBLEM_BASE: z.url().optional().register(settingDocs, {
    defaultText: '`{base_url}/problems`',
    description:
      "`{problem_base}`: a problem's `type` is `{problem_base}/<code>`; svc serves those pages at its default, another base serves its own",
  }),
  SVC_SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(60).default(0).register(settingDocs, {
    description:
      "seconds a stopping server serves on, unready, before its drain (longer than the balancer's `/readyz` interval)",
  }),
  SVC_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1_000).default(50).register(settingDocs, {
    description:
      "how far past its live size the JavaScript heap grows before a full collection (V8's `--heap-growing-percent`); `0` leaves V8's policy",
  }),
};

/** The HTTP server: where it listens and is reached, what it accepts, how it stops. */
export interface HttpSettings {
  host: string;
  port: number;
  baseUrl: string;
  /** True when SVC_BASE_URL was not set: the server then names its bound address. */
  baseUrlDefaulted: boolean;
  problemBase: string;
  problemBaseDefaulted: boolean;
  /** Express `trust proxy` value: unset trusts no proxy (the socket address is the client). */
  trustProxy: string | undefined;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  /** Session cookies are Secure (and HSTS is sent) everywhere but development. */
  secureCookies: boolean;
  /** Seconds a stopping server keeps serving, unready, before it drains (SVC_SHUTDOWN_DELAY_SECONDS). */
  shutdownDelaySeconds: number;
  /**
   * How far past its live size `svc serve` lets the JavaScript heap grow before the next full collection,
   * in percent (V8's --heap-growing-percent); 0 leaves V8's own policy, which grows up to 4 times the live
   * size under a busy server's allocation rate.
   */
  heapGrowthPercent: number;
}

/** The HTTP section; the base URL defaults to the listen address, the problem base to `{base_url}/problems`. */
export function httpSettings(raw: Parsed<typeof httpVariables>, development: boolean): HttpSettings {
  const baseUrl = (
    raw.SVC_BASE_URL ?? `http://${raw.HOST.includes(':') ? `[${raw.HOST}]` : raw.HOST}:${raw.PORT}`
  ).replace(/\/+$/, '');
  return {
    host: raw.HOST,
    port: raw.PORT,
    baseUrl,
    baseUrlDefaulted: raw.SVC_BASE_URL === undefined,
    problemBase: (raw.SVC_PROBLEM_BASE ?? `${baseUrl}/problems`).replace(/\/+$/, ''),
    problemBaseDefaulted: raw.SVC_PROBLEM_BASE === undefined,
    trustProxy: raw.SVC_TRUST_PROXY,
    rateLimitPerMinute: raw.SVC_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: raw.SVC_BODY_LIMIT_BYTES,
    secureCookies: !development,
    shutdownDelaySeconds: raw.SVC_SHUTDOWN_DELAY_SECONDS,
    heapGrowthPercent: raw.SVC_HEAP_GROWTH_PERCENT,
  };
}
