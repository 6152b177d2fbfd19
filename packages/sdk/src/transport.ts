import { randomUUID } from 'node:crypto';
import type { Problem } from '@svc/domain';
import { type Dispatcher, request } from 'undici';
import { ApiError, NetworkError } from './errors.js';

/** How the client presents itself and retries. */
export interface ClientOptions {
  /** Base address, e.g. `https://api.example.com` (without `/v1`). */
  baseUrl: string;
  /** API token `svc_…` or node token `svcnode_…`, sent as a Bearer credential. */
  token?: string;
  /** A session cookie value (`svc_session`), for dashboard-like clients. */
  sessionCookie?: string;
  /** Sent as Origin; browsers do this themselves, server-side callers using a session need it for CSRF. */
  origin?: string;
  /** Retries of 429/503 answers and network failures on calls safe to repeat; default 2. */
  maxRetries?: number;
  /** Longest wait between retries in seconds, whatever Retry-After says; default 30. */
  maxRetryDelaySeconds?: number;
  /** Per-request time-out in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** An undici dispatcher (connection pool, proxy, mock agent). */
  dispatcher?: Dispatcher;
}

/** One API call. */
export interface ApiRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** For creating POSTs: the key sent (and reused across retries); generated when omitted. */
  idempotencyKey?: string;
  /** Creating POSTs send an Idempotency-Key automatically, which makes them safe to retry. */
  idempotent?: boolean;
}

/** A successful answer. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
  requestId: string | undefined;
}

const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function urlOf(baseUrl: string, path: string, query: ApiRequest['query']): string {
  const url = new URL(path, `${baseUrl.replace(/\/+$/, '')}/`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.toString();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends API calls: credentials, JSON, problem documents as {@link ApiError}, automatic Idempotency-Key on
 * creating POSTs (one key reused across retries), and jittered retries of 429/503 honouring Retry-After.
 */
export class Transport {
  constructor(readonly options: ClientOptions) {}

  async send<T>(call: ApiRequest): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...call.headers,
    };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (this.options.sessionCookie !== undefined)
      headers.cookie = `svc_session=${this.options.sessionCookie}`;
    if (this.options.origin !== undefined) headers.origin = this.options.origin;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotent === true || call.idempotencyKey !== undefined) {
      headers['idempotency-key'] = call.idempotencyKey ?? randomUUID();
    }
    const repeatable = SAFE_TO_REPEAT.has(call.method) || headers['idempotency-key'] !== undefined;
    const maxRetries = repeatable ? (this.options.maxRetries ?? 2) : 0;
    const url = urlOf(this.options.baseUrl, call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt += 1) {
      let answer: Dispatcher.ResponseData;
      try {
        answer = await request(url, {
          method: call.method,
          headers,
          body,
          dispatcher: this.options.dispatcher,
          headersTimeout: this.options.timeoutMs ?? 30_000,
          bodyTimeout: this.options.timeoutMs ?? 30_000,
        });
      } catch (cause) {
        if (attempt < maxRetries) {
          await sleep(this.backoffMs(attempt, undefined));
          continue;
        }
        throw new NetworkError(
          `${call.method} ${call.path} failed: ${cause instanceof Error ? cause.message : 'network error'}`,
          {
            cause,
          },
        );
      }
      const responseHeaders = flatten(answer.headers);
      const text = await answer.body.text();
      const requestId = responseHeaders['x-request-id'];
      if (answer.statusCode < 400) {
        const contentType = responseHeaders['content-type'] ?? '';
        // Answers are typed, not validated: unknown fields and enum values must pass through (spec 9.3).
        const data = (
          text.length > 0 && /json/.test(contentType) ? JSON.parse(text) : text.length > 0 ? text : undefined
        ) as T;
        return { status: answer.statusCode, data, headers: responseHeaders, requestId };
      }
      const retryAfter = retryAfterSeconds(responseHeaders['retry-after']);
      if ((answer.statusCode === 429 || answer.statusCode === 503) && attempt < maxRetries) {
        await sleep(this.backoffMs(attempt, retryAfter));
        continue;
      }
      throw new ApiError(answer.statusCode, this.problemOf(text, answer.statusCode), {
        requestId,
        retryAfter,
      });
    }
  }

  private problemOf(text: string, status: number): Partial<Problem> {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) return parsed as Partial<Problem>;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    return { status, code: 'unknown', detail: text.slice(0, 200) };
  }

  private backoffMs(attempt: number, retryAfter: number | undefined): number {
    const cap = (this.options.maxRetryDelaySeconds ?? 30) * 1000;
    if (retryAfter !== undefined) return Math.min(cap, retryAfter * 1000);
    const base = Math.min(cap, 250 * 2 ** attempt);
    return base / 2 + Math.random() * (base / 2);
  }
}
