import type { Dispatcher } from 'undici';
import type { FetchCredentials } from './http/fetch-engine.js';
import type { TransportKind } from './http/http-engine.js';

// The shapes of the client's options, of one call and of its answer, shared by the transport and the resources.

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
