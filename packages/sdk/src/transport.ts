import type { Problem } from '@svc/domain';
import type { Dispatcher } from 'undici';
import { ApiError, NetworkError, RETRYABLE_STATUSES, RequestAbortedError, TimeoutError } from './errors.js';
import { loadEngine } from './http/engine-loader.js';
import type { FetchCredentials } from './http/fetch-engine.js';
import type { HttpEngine, TransportKind } from './http/http-engine.js';

/** How the client presents itself and retries. */
export interface ClientOptions {
  /** Base address, e.g. `https://api.example.com` (without `/v1`). */
  baseUrl: string;
  /** API token `svc_…` or node token `svcnode_…`, sent as a Bearer credential. */
  token?: string;
  /**
   * A session cookie value (`svc_session`) saved from an earlier `client.sessionCookie()`, to resume a
   * session. The client keeps it current itself: `auth.login()` sets it, renewals (spec 5.2.2) replace it,
   * `auth.logout()` clears it.
   */
  sessionCookie?: string;
  /**
   * Sent as Origin on every call. Browsers send it themselves. The server refuses a session write, and an
   * unauthenticated `/v1/auth` write, whose Origin is present and not a dashboard origin (403 csrf_rejected,
   * spec 5.2.4), so a server-side caller using a session either leaves it unset or sets a dashboard origin
   * (`SVC_DASHBOARD_ORIGINS`; `http://localhost:3000` by default and in `createTestApp()`).
   */
  origin?: string;
  /**
   * Retries of 429, 502, 503 and 504 answers, of 409 idempotency_in_progress and of network failures (time-outs
   * included), on calls safe to repeat only: GET, HEAD, PUT, DELETE, and POSTs carrying an Idempotency-Key;
   * default 2.
   */
  maxRetries?: number;
  /**
   * Longest wait before a retry, in seconds, whatever Retry-After says; default 30. With `maxRetries: 0`
   * nothing waits, and `error.retryAfter` tells when to come back.
   */
  maxRetryDelaySeconds?: number;
  /** Time-out of each attempt in milliseconds, until the whole answer is read; default 30 000. */
  timeoutMs?: number;
  /**
   * The HTTP client underneath: `undici` (the default on Node) or `fetch` (the default elsewhere, and the only
   * one in browsers). Setting `fetch` or `credentials` without `transport` chooses `fetch` too.
   */
  transport?: TransportKind;
  /** The fetch function of the `fetch` transport; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * The `fetch` transport's credentials mode. In browsers the session cookie is the browser's own (scripts
   * can neither read nor send it): `include` keeps and sends it when the API is on another origin than the
   * page, `same-origin` (fetch's default) when it is on the page's own.
   */
  credentials?: FetchCredentials;
  /** An undici dispatcher (connection pool, proxy, mock agent), for the `undici` transport. */
  dispatcher?: Dispatcher;
}

/**
 * Per-call settings, given to `client.withOptions(…)`: they override the client's for every call made through
 * the derived client, which shares the session cookie with its parent.
 */
export interface RequestOptions {
  /** Retries of this call; 0 disables them. */
  maxRetries?: number;
  /** Time-out of each attempt in milliseconds. */
  timeoutMs?: number;
  /** Aborts the call (and any wait before a retry): it then throws RequestAbortedError. */
  signal?: AbortSignal;
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
  /**
   * Sends neither the token nor the session cookie. For the public sign-in surfaces: the server answers 401 to
   * any credential that is no longer live, so a revoked token or an ended session would otherwise make a new
   * sign-in fail. A session cookie in the answer is still kept.
   */
  anonymous?: boolean;
  /**
   * How to read a successful body: `json` (the default) parses JSON answers and gives any other body as text
   * (undefined when empty); `text` always gives the body as a string, empty included, for documents such as
   * the OpenAPI YAML or an Apple configuration profile.
   */
  responseType?: 'json' | 'text';
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Aborts this call: it then throws RequestAbortedError. */
  signal?: AbortSignal;
}

/** Options of a creating call. */
export interface CreateOptions {
  /**
   * The Idempotency-Key to send (1 to 255 visible ASCII characters, spec 4.1.5). Omitted, one is generated
   * per call and reused across its retries; pass your own to make a repeated call, even from another process,
   * answer the first one's result instead of creating again.
   */
  idempotencyKey?: string;
}

/** A successful answer. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
  requestId: string | undefined;
}

/** An open streaming answer: its body is read chunk by chunk as the server writes it. */
export interface ApiStream {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Name of the session cookie (spec 5.1). */
const SESSION_COOKIE = 'svc_session';

/**
 * What the answer's Set-Cookie headers say about the session cookie: a new value, `null` when the server
 * cleared it (empty value, Max-Age 0 or an Expires in the past), `undefined` when they do not name it. Read
 * from the raw header list, since an Expires date holds a comma and joined headers cannot be split again.
 */
function sessionCookieOf(setCookie: readonly string[]): string | null | undefined {
  let found: string | null | undefined;
  for (const header of setCookie) {
    const [pair = '', ...attributes] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => {
      const [name = '', ...rest] = attribute.split('=');
      const setting = rest.join('=').trim();
      const key = name.trim().toLowerCase();
      if (key === 'max-age') return Number(setting) <= 0;
      if (key === 'expires') return Date.parse(setting) <= Date.now();
      return false;
    });
    found = value.length === 0 || expired ? null : value;
  }
  return found;
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

/** Waits `ms`, or less when `signal` aborts (the caller then sees the abort on its next check). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * What a client shares with those derived from it with `withOptions`: the session cookie and the HTTP engine
 * (built on the first call).
 */
interface SessionJar {
  value: string | undefined;
  engine?: Promise<HttpEngine>;
}

/**
 * Sends API calls: credentials, JSON, problem documents as {@link ApiError}, automatic Idempotency-Key on
 * creating POSTs (one key reused across retries), time-outs and aborts, and retries with exponential back-off
 * and jitter of network failures and 429/502/503/504 answers, honouring Retry-After. It also keeps the
 * `svc_session` cookie: every answer's Set-Cookie for it replaces (login, renewal) or clears (logout) the
 * value sent on later calls.
 */
export class Transport {
  private readonly jar: SessionJar;
  private readonly defaults: RequestOptions;

  constructor(
    readonly options: ClientOptions,
    shared?: { jar: SessionJar; defaults: RequestOptions },
  ) {
    this.jar = shared?.jar ?? { value: options.sessionCookie };
    this.defaults = shared?.defaults ?? {};
  }

  /** A transport with `overrides` for every call, sharing this one's session cookie. */
  withOptions(overrides: RequestOptions): Transport {
    return new Transport(this.options, { jar: this.jar, defaults: { ...this.defaults, ...overrides } });
  }

  /** The HTTP engine, loaded on the first call (undici only then, by a dynamic import). */
  private engine(): Promise<HttpEngine> {
    this.jar.engine ??= loadEngine(this.options);
    return this.jar.engine;
  }

  private get session(): string | undefined {
    return this.jar.value;
  }

  private set session(value: string | undefined) {
    this.jar.value = value;
  }

  /**
   * The session cookie value as last set by the server (login, renewal), or undefined when signed out. Kept
   * per client, like a browser's cookie jar holding only `svc_session`.
   */
  get sessionCookie(): string | undefined {
    return this.session;
  }

  /** Forgets the session cookie, for a sign-out whose answer did not clear it (the session was already gone). */
  clearSession(): void {
    this.session = undefined;
  }

  /** Sends one call, retrying when it is safe to; problems throw ApiError, transport failures NetworkError. */
  async send<T>(call: ApiRequest): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...call.headers,
    };
    if (this.options.token !== undefined && call.anonymous !== true)
      headers.authorization = `Bearer ${this.options.token}`;
    if (this.options.origin !== undefined) headers.origin = this.options.origin;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotent === true || call.idempotencyKey !== undefined) {
      // The Web Crypto global (Node 20+, browsers), so that key generation needs no Node built-in.
      headers['idempotency-key'] = call.idempotencyKey ?? globalThis.crypto.randomUUID();
    }
    const repeatable = SAFE_TO_REPEAT.has(call.method) || headers['idempotency-key'] !== undefined;
    const maxRetries = repeatable
      ? (call.maxRetries ?? this.defaults.maxRetries ?? this.options.maxRetries ?? 2)
      : 0;
    const timeoutMs = call.timeoutMs ?? this.defaults.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const signal = call.signal ?? this.defaults.signal;
    const url = urlOf(this.options.baseUrl, call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const what = `${call.method} ${call.path}`;
    // A function, not a narrowed property: the signal may abort during any await below.
    const aborted = () => signal?.aborted === true;

    for (let attempt = 0; ; attempt += 1) {
      if (aborted()) throw new RequestAbortedError(`${what} was aborted`, { cause: signal?.reason });
      // Read on every attempt: a concurrent call may have received a renewed cookie meanwhile.
      if (this.session === undefined || call.anonymous === true) delete headers.cookie;
      else headers.cookie = `${SESSION_COOKIE}=${this.session}`;
      const attemptControl = new AbortController();
      const timer = setTimeout(() => attemptControl.abort(), timeoutMs);
      const forwardAbort = () => attemptControl.abort();
      signal?.addEventListener('abort', forwardAbort, { once: true });
      let status: number;
      let responseHeaders: Record<string, string>;
      let text: string;
      let engine: HttpEngine | undefined;
      try {
        engine = await this.engine();
        const answer = await engine.send({
          url,
          method: call.method,
          headers,
          body,
          signal: attemptControl.signal,
          headersTimeoutMs: timeoutMs,
          bodyTimeoutMs: timeoutMs,
        });
        const renewed = sessionCookieOf(answer.setCookie);
        if (renewed !== undefined) this.session = renewed ?? undefined;
        status = answer.status;
        responseHeaders = answer.headers;
        // Inside the try: a connection reset while the body arrives is a network failure like a refused one.
        text = await answer.text();
      } catch (cause) {
        if (aborted()) throw new RequestAbortedError(`${what} was aborted`, { cause });
        const timedOut = attemptControl.signal.aborted || engine?.isTimeout(cause) === true;
        if (attempt < maxRetries) {
          await sleep(this.backoffMs(attempt), signal);
          continue;
        }
        const reason = cause instanceof Error ? cause.message : 'network error';
        if (timedOut) throw new TimeoutError(`${what} timed out after ${timeoutMs} ms`, { cause, timeoutMs });
        throw new NetworkError(`${what} failed: ${reason}`, { cause });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forwardAbort);
      }
      const requestId = responseHeaders['x-request-id'];
      if (status < 400) {
        const contentType = responseHeaders['content-type'] ?? '';
        // Answers are typed, not validated: unknown fields and enum values must pass through (spec 9.3).
        const data = (
          call.responseType === 'text'
            ? text
            : text.length > 0 && /json/.test(contentType)
              ? JSON.parse(text)
              : text.length > 0
                ? text
                : undefined
        ) as T;
        return { status, data, headers: responseHeaders, requestId };
      }
      const error = new ApiError(status, this.problemOf(text, status), {
        requestId,
        retryAfter: retryAfterSeconds(responseHeaders['retry-after']),
      });
      const wait = this.retryDelayMs(attempt, error);
      if (attempt < maxRetries && wait !== undefined) {
        await sleep(wait, signal);
        continue;
      }
      throw error;
    }
  }

  /**
   * Opens a long-lived answer (server-sent events) once, without retries: an error status throws ApiError, a
   * transport failure NetworkError; otherwise the body is read as it arrives. `idleMs` ends a body silent
   * that long (a stream's heartbeats keep it busy).
   */
  async openStream(call: ApiRequest, signal: AbortSignal, idleMs: number): Promise<ApiStream> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...call.headers };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (this.options.origin !== undefined) headers.origin = this.options.origin;
    if (this.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${this.session}`;
    let answer: Awaited<ReturnType<HttpEngine['send']>>;
    try {
      answer = await (await this.engine()).send({
        url: urlOf(this.options.baseUrl, call.path, call.query),
        method: call.method,
        headers,
        body: undefined,
        signal,
        headersTimeoutMs: this.defaults.timeoutMs ?? this.options.timeoutMs ?? 30_000,
        bodyTimeoutMs: idleMs,
      });
    } catch (cause) {
      throw new NetworkError(
        `${call.method} ${call.path} failed: ${cause instanceof Error ? cause.message : 'network error'}`,
        { cause },
      );
    }
    if (answer.status >= 400) {
      const text = await answer.text();
      throw new ApiError(answer.status, this.problemOf(text, answer.status), {
        requestId: answer.headers['x-request-id'],
        retryAfter: retryAfterSeconds(answer.headers['retry-after']),
      });
    }
    return { status: answer.status, headers: answer.headers, body: answer.body };
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

  /** Exponential back-off with jitter: 250 ms, 500 ms, 1 s… capped, each drawn from its upper half. */
  private backoffMs(attempt: number): number {
    const base = Math.min(this.maxDelayMs(), 250 * 2 ** attempt);
    return base / 2 + Math.random() * (base / 2);
  }

  /**
   * How long to wait before retrying an error answer, or undefined when its status is not retryable.
   * Retry-After is a minimum, so the jitter (up to a tenth, at most one second) goes on top, spreading the
   * clients it held back; `maxRetryDelaySeconds` caps the whole wait.
   */
  private retryDelayMs(attempt: number, error: ApiError): number | undefined {
    // A repeat of an idempotent POST whose first try is still running (or ran on a server that died) is told
    // to come back: the same key then gets the first answer, or runs anew once the first try's lease lapses.
    const inProgress = error.status === 409 && error.code === 'idempotency_in_progress';
    if (!RETRYABLE_STATUSES.has(error.status) && !inProgress) return undefined;
    if (error.retryAfter === undefined) return this.backoffMs(attempt);
    const wait = error.retryAfter * 1000;
    return Math.min(this.maxDelayMs(), wait + Math.random() * Math.min(1000, wait / 10));
  }

  private maxDelayMs(): number {
    return (this.options.maxRetryDelaySeconds ?? 30) * 1000;
  }
}
